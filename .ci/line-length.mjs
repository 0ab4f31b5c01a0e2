#!/usr/bin/env node
// No source line over 120 characters (ADR 0250). ESLint's max-len says so in the packages it lints; this covers
// every tracked source file, also those no package lints (CI scripts, root configs, benches, browser assets).
//   node .ci/line-length.mjs      lists each line over the limit and fails (exit 1) when there is one
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$|\.sh$|^\.ci\/run$/;
// Generated files (ADR 0250): written by a tool and compared with what it writes, never edited by hand.
const GENERATED = [/^libs\/api-types\/src\/generated\//];
const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter((f) => SOURCE.test(f) && !GENERATED.some((g) => g.test(f)));
let over = 0;
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      // Counted as ESLint's max-len counts: in code points.
      const length = [...line].length;
      if (length > MAX) {
        over += 1;
        console.error(`${file}:${i + 1}: ${length} characters (at most ${MAX})`);
      }
    });
}
if (over > 0) {
  console.error(`${over} line(s) over ${MAX} characters: wrap them (strings split into a concatenation, see ADR 0250)`);
  process.exit(1);
}
console.log(`${files.length} source files, no line over ${MAX} characters`);
