// Completes package-lock.json with the other platforms' optional binaries (e.g. @swc/core-darwin-arm64).
// npm 11 skips them when it writes the lock on Linux, yet `npm ci` requires them (npm/cli#4828, #9083).
// Run after changing dependencies: node tools/lockfile/complete-optional.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = where === '' ? '' : `${where}/`;
    if (packages[`${base}node_modules/${name}`] || packages[`node_modules/${name}`]) continue;
    const meta = JSON.parse(execFileSync('npm', ['view', `${name}@${range}`, '--json', 'version', 'dist.integrity', 'os', 'cpu', 'libc', 'engines', 'license'], { encoding: 'utf8' }));
    const m = Array.isArray(meta) ? meta[meta.length - 1] : meta;
    packages[`node_modules/${name}`] = Object.fromEntries(
      Object.entries({ version: m.version, integrity: m['dist.integrity'], cpu: m.cpu, libc: m.libc, license: m.license, optional: true, os: m.os, engines: m.engines }).filter(([, v]) => v !== undefined),
    );
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform entries`);
