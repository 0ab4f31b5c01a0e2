export * from './infra';
export * from './system';
export * from './zgw';
export * from './cluster/cluster';
export * from './cluster/nats-cluster';
