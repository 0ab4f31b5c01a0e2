// Points the local tag v1.0.0 at the baseline commit (the one that added the frozen description).
import { execFileSync } from 'node:child_process';
import { BASELINE_VERSION, ROOT, baselineCommit } from './baseline';

const commit = baselineCommit();
execFileSync('git', ['tag', '-f', BASELINE_VERSION, commit], { cwd: ROOT });
process.stdout.write(`${BASELINE_VERSION} -> ${commit}\n`);
