import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventSchemas, internalSchemas, type NamedSchema } from './schemas';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The published v1: the description frozen at v1.0.0, and beside it the events' and internal APIs' schemas. */
export const BASELINE_VERSION = 'v1.0.0';
export const FROZEN_DESCRIPTION = path.join(ROOT, 'docs', 'api', `${BASELINE_VERSION}.json`);
export const FROZEN_SCHEMAS = path.join(ROOT, 'docs', 'api', BASELINE_VERSION);
export const LIVE_DESCRIPTION = path.join(ROOT, 'libs', 'api-types', 'openapi.json');

/** The schemas as the code describes them now. */
export const liveSchemas = (): NamedSchema[] => [...eventSchemas(), ...internalSchemas()];

const fileOf = (dir: string, name: string) => path.join(dir, `${name}.json`);
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The frozen schema of a name, or null when the baseline has none (a new event or internal schema). */
export function frozenSchema(name: string, dir = FROZEN_SCHEMAS): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(fileOf(dir, name), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The names the baseline froze (its index), so a schema removed from the code is noticed. */
export function frozenNames(dir = FROZEN_SCHEMAS): string[] {
  return JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as string[];
}

/** Writes the baseline: run once, at the commit that publishes the version (`npm run compat:freeze`). */
export function freeze(dir = FROZEN_SCHEMAS, description = FROZEN_DESCRIPTION): string[] {
  writeFileSync(description, readFileSync(LIVE_DESCRIPTION, 'utf8'));
  const schemas = liveSchemas();
  for (const { name, schema } of schemas) {
    mkdirSync(path.dirname(fileOf(dir, name)), { recursive: true });
    writeFileSync(fileOf(dir, name), pretty(schema));
  }
  writeFileSync(path.join(dir, 'index.json'), pretty(schemas.map((s) => s.name)));
  return schemas.map((s) => s.name);
}

/**
 * The baseline commit: the one that added the frozen description. Found from history rather than stored, since a
 * rebase gives every commit a new id and tags do not travel with a clone's branch.
 */
export function baselineCommit(): string {
  const out = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', path.relative(ROOT, FROZEN_DESCRIPTION)],
    { cwd: ROOT, encoding: 'utf8' },
  ).trim();
  const commits = out.split('\n').filter(Boolean);
  if (commits.length === 0) throw new Error(`no commit adds ${FROZEN_DESCRIPTION}`);
  return commits[commits.length - 1]!;
}
