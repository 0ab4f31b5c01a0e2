export * from './core';
export * from './neighbour';
export * from './system-events';
export * from './lock-hold';
export * from './pact';
export * from './v1-samples';
export * from './table-writes';
