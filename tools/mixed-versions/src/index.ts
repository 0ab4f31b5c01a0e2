export * from './baseline-tree';
