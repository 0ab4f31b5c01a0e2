import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '../src/logger';
import { logProcessWarnings } from '../src/process-warnings';

type Line = Record<string, unknown>;

/**
 * In a fresh Node process (a warning is printed once per process, and jest's worker has its own listeners): a
 * real deprecation, the `util._extend` http-proxy calls in the gateway (DEP0060), and a warning of another
 * kind, with the kit's routing (`logged`), with it and the deprecation muted (`muted`), or without it
 * (`control`: what Node does by default). The built kit is used: the child runs plain Node.
 */
const PROBE = `
const kit = require(${JSON.stringify(path.join(__dirname, '..', 'dist', 'index.js'))});
const mode = process.argv[1];
if (mode !== 'control') kit.logProcessWarnings(kit.createLogger('probe', 'info'));
if (mode === 'muted') process.noDeprecation = true;
require('node:util')._extend({}, { a: 1 });
process.emitWarning('Possible EventEmitter memory leak detected.', 'MaxListenersExceededWarning');
setTimeout(() => {}, 20);
`;

async function run(mode: 'logged' | 'muted' | 'control'): Promise<{ stdout: Line[]; stderr: string }> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-e', PROBE, mode]);
  return {
    stdout: stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line),
    stderr,
  };
}

describe("Node's process warnings (process-warnings.ts)", () => {
  it(
    'when a process that owns its warnings gets some, then each is one JSON warn ' +
      'record of its log and nothing is printed raw; without it Node prints them to stderr',
    async () => {
      const control = await run('control');
      expect(control.stderr).toContain('[DEP0060] DeprecationWarning');
      expect(control.stderr).toContain('MaxListenersExceededWarning');
      expect(control.stdout).toEqual([]);

      const logged = await run('logged');
      expect(logged.stderr).toBe('');
      const warnings = logged.stdout.filter((l) => l['msg'] === 'process warning');
      expect(warnings.map((l) => [l['level'], l['name'], l['warning']])).toEqual([
        [
          40,
          'probe',
          { name: 'DeprecationWarning', code: 'DEP0060', message: expect.stringContaining('util._extend') },
        ],
        [40, 'probe', { name: 'MaxListenersExceededWarning', message: 'Possible EventEmitter memory leak detected.' }],
      ]);
    },
  );

  it(
    'when a deprecation is muted (process.noDeprecation, as the gateway settles url.parse), ' +
      'then it stays unlogged while other warnings are logged',
    async () => {
      const muted = await run('muted');
      expect(muted.stderr).toBe('');
      expect(
        muted.stdout.filter((l) => l['msg'] === 'process warning').map((l) => (l['warning'] as Line)['name']),
      ).toEqual(['MaxListenersExceededWarning']);
    },
  );

  it('when the routing is undone, then the printers it took over are back, and it no longer listens', () => {
    const before = process.listeners('warning');
    const undo = logProcessWarnings(createLogger('test', 'silent'));
    expect(process.listeners('warning').some((l) => before.includes(l))).toBe(false);
    expect(process.listeners('warning')).toHaveLength(1);
    undo();
    expect(process.listeners('warning')).toEqual(before);
  });
});
