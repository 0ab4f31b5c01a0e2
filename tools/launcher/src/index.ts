export * from './infra';
export * from './system';
