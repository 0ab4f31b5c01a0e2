export * from './infra';
export * from './system';
export * from './zgw';
