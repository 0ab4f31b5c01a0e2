import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FROZEN_DESCRIPTION, ROOT, baselineCommit, freeze, frozenNames, frozenSchema, liveSchemas } from '../src';

// Issue 23, item 1: the published v1 is frozen in the repository, and its commit is found from history.
describe('the v1.0.0 baseline', () => {
  it('when the baseline commit is looked up, then its tree holds the frozen description as it is committed', () => {
    const commit = baselineCommit();
    const atBaseline = execFileSync('git', ['show', `${commit}:docs/api/v1.0.0.json`], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(atBaseline).toBe(readFileSync(FROZEN_DESCRIPTION, 'utf8'));
  });

  it('when the baseline is read, then it holds every event subject and internal API schema of v1', () => {
    const names = frozenNames();
    expect(names).toEqual(
      expect.arrayContaining(['events/register.applications.decided', 'events/register.reference.flag-changed']),
    );
    expect(names).toEqual(
      expect.arrayContaining(['internal/applications.letterContext', 'internal/documents.linkRequest']),
    );
    const kinds = names.map((name) => [name, frozenSchema(name)?.['type']]);
    for (const [name, kind] of kinds) expect([name, ['object', 'array'].includes(String(kind))]).toEqual([name, true]);
  });

  it(
    'when the schemas are frozen into a folder, ' +
      'then each is the JSON Schema of its zod schema, listed in the index',
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'compat-freeze-'));
      try {
        const names = freeze(dir, path.join(dir, 'description.json'));
        expect(frozenNames(dir)).toEqual(names);
        for (const { name, schema } of liveSchemas()) expect(frozenSchema(name, dir)).toEqual(schema);
        expect(readFileSync(path.join(dir, 'description.json'), 'utf8')).toBe(
          readFileSync(path.join(ROOT, 'libs/api-types/openapi.json'), 'utf8'),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
