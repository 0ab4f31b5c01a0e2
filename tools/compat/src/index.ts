export * from './baseline';
export * from './schemas';
