export * from './core';
export * from './neighbour';
