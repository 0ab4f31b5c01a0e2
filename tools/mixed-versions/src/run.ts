import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '@register/compat';
import { prepareBaseline } from './baseline-tree';

/**
 * `npm run test:mixed` (ADR 0230): builds the v1.0.0 tree unless built, runs the mixed-version and upgrade tests,
 * then the whole-system suite once with the services called by others at v1.0.0 (reference, audit, documents)
 * and their callers at HEAD (gateway, applications, letters), so every boundary but gateway → applications and
 * gateway → letters joins two versions. Each step's time is printed; the exit code is the first failure's.
 */
export const FULL_SUITE_AT_V1: readonly string[] = ['reference', 'audit', 'documents'];

function step(name: string, work: () => number): number {
  const started = Date.now();
  const code = work();
  process.stdout.write(`::: ${name}: ${Math.round((Date.now() - started) / 1000)} s (exit ${code})\n`);
  return code;
}

const jest = (args: string[], env: NodeJS.ProcessEnv = process.env): number =>
  spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  }).status ?? 1;

let tree = '';
const codes = [
  step('v1.0.0 tree', () => {
    tree = prepareBaseline((line) => process.stdout.write(`${line}\n`)).root;
    return 0;
  }),
  step('mixed versions and upgrade', () =>
    jest(['--config', path.join(ROOT, 'tools', 'mixed-versions', 'jest.config.js'), ...process.argv.slice(2)]),
  ),
  step(`whole-system suite with ${FULL_SUITE_AT_V1.join(', ')} at v1.0.0`, () =>
    jest(['--selectProjects', 'gateway', '--testPathPatterns', 'services/gateway/test/system\\.test\\.ts$'], {
      ...process.env,
      SYSTEM_TEST_V1_TREE: tree,
      SYSTEM_TEST_V1_SERVICES: FULL_SUITE_AT_V1.join(','),
    }),
  ),
];
process.exitCode = codes.find((c) => c !== 0) ?? 0;
