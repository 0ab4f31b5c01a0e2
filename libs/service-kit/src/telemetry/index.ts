export * from './trace-context';
export * from './tracing';
export * from './metrics';
