import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NamedSchema } from './schemas';
import { addedValues } from './value-sets';

/** Where the gate compares: the frozen and the live description, the frozen and the live contract schemas. */
export interface GateInput {
  frozenDescription: string;
  liveDescription: string;
  frozenSchemas: NamedSchema[];
  liveSchemas: NamedSchema[];
}

export interface GateResult {
  ok: boolean;
  /** For each comparison that found a breaking change: Optic's diff of it. */
  breaking: string[];
}

// A request's schema is read by the service that owns it: it must keep accepting what it accepted. Everything
// else (event payloads, internal answers) is read by consumers: it must keep giving what it gave.
const isRequest = (name: string) => /(Request|Query|Params)$/.test(name);

/**
 * The contract schemas as one OpenAPI document, so the same maintained breaking-change rules judge them: a
 * request schema is an operation's request body, an event payload or internal answer its response body.
 */
export function schemasAsDescription(schemas: NamedSchema[]): object {
  const paths: Record<string, object> = {};
  for (const { name, schema } of schemas) {
    const { $schema: _drop, ...body } = schema;
    const content = { 'application/json': { schema: body } };
    const operationId = name.replace(/[^A-Za-z0-9]+/g, '_');
    paths[`/${name}`] = {
      post: isRequest(name)
        ? { operationId, requestBody: { required: true, content }, responses: { '204': { description: 'Accepted' } } }
        : { operationId, responses: { '200': { description: 'The payload', content } } },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Events and internal APIs', version: '1.0.0' }, paths };
}

// Optic's own entry point, wherever npm placed the package (its `bin` is `build/index.js`).
const OPTIC = path.join(path.dirname(require.resolve('@useoptic/optic/package.json')), 'build', 'index.js');

/** Optic's breaking-change check of one pair of descriptions: null when it passes, its report otherwise. */
export function opticDiff(label: string, before: string, after: string): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compat-gate-'));
  try {
    return opticDiffIn(dir, label, before, after);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function opticDiffIn(dir: string, label: string, before: string, after: string): string | null {
  const base = path.join(dir, `${label}.v1.0.0.json`);
  const head = path.join(dir, `${label}.live.json`);
  writeFileSync(base, before);
  writeFileSync(head, after);
  const run = spawnSync(process.execPath, [OPTIC, 'diff', base, head, '--check', '--json'], {
    encoding: 'utf8',
    // Under CI Optic writes ci-run-details.json into its working directory: the temp one, removed after.
    cwd: dir,
    // No telemetry: the gate runs where only the package registry is reachable.
    env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'none' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  const removed = removedParameters(run.stdout);
  if (run.status === 0 && removed.length === 0) return null;
  // Optic's rules allow removing an optional parameter; a v1 client still sends it, so here it is breaking too.
  const extra = removed.map((p) => `  ${p}: removed (breaking within v1)`).join('\n');
  const words = `run \`npx optic diff ${label} --check\` on the two files for its rules' words`;
  return `${label}: breaking changes (${words}):\n${run.stdout.trim()}${extra ? `\n${extra}` : ''}`;
}

interface OpticChange {
  name: string;
  change: string;
  parameters?: OpticChange[];
}

/** Every parameter Optic's diff reports removed, as `<operation> <parameter>`. */
function removedParameters(json: string): string[] {
  let diff: { operations?: OpticChange[] };
  try {
    diff = JSON.parse(json) as { operations?: OpticChange[] };
  } catch {
    return [];
  }
  return (diff.operations ?? []).flatMap((op) =>
    (op.parameters ?? []).filter((p) => p.change === 'removed').map((p) => `${op.name} ${p.name}`),
  );
}

/** Compares v1.0.0 with what the code describes now; any breaking change fails it. */
export function runGate(input: GateInput): GateResult {
  const api = opticDiff('api', input.frozenDescription, input.liveDescription);
  const schemas = checkSchemas(input.frozenSchemas, input.liveSchemas);
  const breaking = [api, schemas].filter((r): r is string => r !== null);
  return { ok: breaking.length === 0, breaking };
}

/** The contract schemas' check alone: null when the live ones keep v1.0.0's promises. */
export function checkSchemas(frozen: NamedSchema[], live: NamedSchema[]): string | null {
  const optic = opticDiff(
    'schemas',
    JSON.stringify(schemasAsDescription(frozen)),
    JSON.stringify(schemasAsDescription(live)),
  );
  const values = newValuesForConsumers(frozen, live);
  const extra = values.length
    ? `schemas: breaking changes (a value consumers of v1 have never seen, ` +
      `ADR 0227):\n${values.map((v) => `  ${v}`).join('\n')}`
    : null;
  const found = [optic, extra].filter((r): r is string => r !== null);
  return found.length ? found.join('\n') : null;
}

/**
 * ADR 0227: in what a consumer reads (an event payload, an internal answer) a new value where v1.0.0 had a
 * closed set is breaking. A request schema may accept more values: its owner reads it.
 */
export function newValuesForConsumers(frozen: NamedSchema[], live: NamedSchema[]): string[] {
  const now = new Map(live.map((s) => [s.name, s.schema]));
  return frozen
    .filter(({ name }) => !isRequest(name) && now.has(name))
    .flatMap(({ name, schema }) => addedValues(schema, now.get(name)!).map((change) => `${name} ${change}`));
}
