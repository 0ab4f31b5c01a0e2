export * from './baseline';
export * from './schemas';
export * from './gate';
export * from './value-sets';
