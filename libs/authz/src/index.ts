export * from './identity';
export * from './identity-provider';
export * from './capabilities';
export * from './internal-identity';
export * from './routes';
export * from './authorize';
export * from './guard';
