// Narrows a pruned tree (turbo prune --docker) to one service and the workspaces it needs at run time.
// turbo prune keeps devDependency workspaces too (the tests' testkit, the launcher, the embedded PostgreSQL), so
// `npm ci --omit=dev` there would still install their packages; the image installs from this narrower root.
// Usage: node production-workspaces.mjs <dir with package.json and the workspaces' package.json> <service>
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [dir, service] = process.argv.slice(2);
const read = (file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const root = read('package.json');
const byName = new Map();
for (const group of ['libs', 'services', 'tools']) {
  for (const folder of safeList(path.join(dir, group))) {
    const pkg = read(path.join(group, folder, 'package.json'));
    byName.set(pkg.name, { folder: `${group}/${folder}`, pkg });
  }
}
const keep = new Set();
const visit = (name) => {
  const ws = byName.get(name);
  if (!ws || keep.has(ws.folder)) return;
  keep.add(ws.folder);
  Object.keys(ws.pkg.dependencies ?? {}).forEach(visit);
};
visit(`@register/${service}`);
if (keep.size === 0) throw new Error(`no workspace @register/${service} under ${dir}`);
for (const { folder } of byName.values()) if (!keep.has(folder)) rmSync(path.join(dir, folder), { recursive: true });
// Development packages (the root's tooling, each workspace's test packages) never run in an image; dropping them
// from the manifests too lets npm prune and npm sbom read the tree as complete.
delete root.devDependencies;
for (const folder of keep) {
  const file = path.join(folder, 'package.json');
  const pkg = read(file);
  delete pkg.devDependencies;
  writeFileSync(path.join(dir, file), `${JSON.stringify(pkg, null, 2)}\n`);
}
root.workspaces = [...keep].sort();
writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(root, null, 2)}\n`);
process.stdout.write(`${root.workspaces.join('\n')}\n`);

function safeList(folder) {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
