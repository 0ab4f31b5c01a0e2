import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const LEGACY_URL_JS = JSON.stringify(path.join(__dirname, '..', 'dist', 'src', 'proxy', 'legacy-url.js'));

/**
 * In a fresh Node process (the test worker's url.parse may have warned already): whether a url.parse call from
 * application code after `settleUrlParseWarning` still finds Node's DEP0169 latch unset. If it does, Node warns
 * (the control run without the settle shows that it would), and every url.parse from node_modules (the
 * proxy's path check) walks the stack again. The built module is used: the child runs plain Node.
 */
const PROBE = `
const url = require('node:url');
const warned = [];
process.on('warning', (w) => warned.push(w.code));
if (process.argv[1] === 'settle') require(${LEGACY_URL_JS}).settleUrlParseWarning();
url.parse('/api/v1/x?y=1');
setImmediate(() => process.stdout.write(JSON.stringify(warned)));
`;

async function warningsAfter(mode: 'settle' | 'control'): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', PROBE, mode]);
  return JSON.parse(stdout) as string[];
}

describe('the legacy url.parse warning (proxy/legacy-url.ts)', () => {
  it(
    'when the gateway has settled it, then url.parse no longer looks ' +
      'for a caller to warn (no DEP0169), while without it Node would',
    async () => {
      expect(await warningsAfter('control')).toEqual(['DEP0169']);
      expect(await warningsAfter('settle')).toEqual([]);
    },
  );
});
