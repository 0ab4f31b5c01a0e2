import { prepareBaseline } from './baseline-tree';

// `node dist/prepare.js`: builds the v1.0.0 tree the mixed-version tests run services from, unless it is built.
const started = Date.now();
const tree = prepareBaseline((line) => process.stdout.write(`${line}\n`));
process.stdout.write(`v1.0.0 tree ready at ${tree.root} (${Math.round((Date.now() - started) / 1000)} s)\n`);
