#!/usr/bin/env node
// Two jest runs (--json) give the same result: the same tests, each with the same status.
//   node .ci/same-result.mjs first.json second.json
import { readFileSync } from 'node:fs';

const outcomes = (file) => {
  const run = JSON.parse(readFileSync(file, 'utf8'));
  const map = new Map();
  for (const suite of run.testResults) {
    for (const test of suite.assertionResults) map.set(`${suite.name} › ${test.fullName}`, test.status);
  }
  return { map, passed: run.numPassedTests, failed: run.numFailedTests, total: run.numTotalTests };
};

const [a, b] = process.argv.slice(2).map(outcomes);
if (!a || !b) {
  console.error('usage: same-result.mjs first.json second.json');
  process.exit(2);
}
const differ = [...new Set([...a.map.keys(), ...b.map.keys()])].filter((name) => a.map.get(name) !== b.map.get(name));
console.log(
  `first run: ${a.passed}/${a.total} passed, ${a.failed} failed; ` +
    `second run: ${b.passed}/${b.total} passed, ${b.failed} failed`,
);
if (differ.length > 0) {
  console.error(
    `the two runs differ in ${differ.length} test(s):\n  ` +
      `${differ.map((n) => `${n}: ${a.map.get(n) ?? 'absent'} → ${b.map.get(n) ?? 'absent'}`).join('\n  ')}`,
  );
  process.exit(1);
}
console.log('the two runs give the same result');
