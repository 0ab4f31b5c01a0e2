export * from './capabilities';
export * from './events';
export * from './problems';
export * from './routes';
export * from './verwerkingsactiviteiten';
export * from './processing';
