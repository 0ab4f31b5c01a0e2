export * from './catalogue';
export * from './errors';
export * from './problem';
export * from './error-handler';
export * from './pages';
