import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineCommit, ROOT } from '@register/compat';

/** A built checkout of the v1.0.0 commit: every service runnable from `root/services/<s>/dist`. */
export interface BaselineTree {
  commit: string;
  root: string;
}

/** Written last, after a successful build: a tree without it is half made and is made again. */
const STAMP = '.register-baseline-built';

/**
 * Where the v1.0.0 tree is kept: outside the repository (no tool of this tree then sees a second copy of every
 * workspace), once per machine and commit. `REGISTER_BASELINE_DIR` chooses another place.
 */
export function baselineDir(commit: string, env: NodeJS.ProcessEnv = process.env): string {
  return (
    env['REGISTER_BASELINE_DIR'] || path.join(os.homedir(), '.cache', 'register', `baseline-${commit.slice(0, 12)}`)
  );
}

/** The v1.0.0 tree when it is built, else null. */
export function builtBaseline(commit = baselineCommit()): BaselineTree | null {
  const root = baselineDir(commit);
  const stamp = path.join(root, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === commit ? { commit, root } : null;
}

/**
 * The v1.0.0 tree, made when missing: the commit's files from this clone's history (`git archive`: nothing to
 * register in the clone, nothing to prune), its locked dependencies (`npm ci`) and its build. Minutes once, then
 * nothing.
 */
export function prepareBaseline(log: (line: string) => void = () => undefined): BaselineTree {
  const commit = baselineCommit();
  const built = builtBaseline(commit);
  if (built) return built;
  const root = baselineDir(commit);
  // Made beside and moved in place, so an interrupted run leaves no tree that looks finished.
  const making = `${root}.making-${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { recursive: true });
  log(`v1.0.0 (${commit}): checking out into ${making}`);
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', making], { input: archive });
  const run = (cmd: string, args: string[]) => {
    log(`v1.0.0: ${cmd} ${args.join(' ')}`);
    execFileSync(cmd, args, { cwd: making, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: '1' } });
  };
  run('npm', ['ci', '--no-audit', '--no-fund']);
  run('npm', ['run', 'build', '--', '--output-logs=errors-only']);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.dirname(root), { recursive: true });
  renameSync(making, root);
  writeFileSync(path.join(root, STAMP), `${commit}\n`);
  return { commit, root };
}
