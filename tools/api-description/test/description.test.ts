import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DESCRIPTION_FILE, TYPES_FILE, generateTypes, liveDescription } from '../src';
import { ownInfrastructure } from './support/own-infrastructure';

// The committed description (libs/api-types/openapi.json) and the portals' types must be what the running
// system serves: CI fails when a route, schema or tag changed without `npm run api:update`.
describe('the public API description', () => {
  let live: string;
  beforeAll(async () => {
    const prefix = `apidesc_${randomBytes(4).toString('hex')}`;
    const own = ownInfrastructure(prefix);
    try {
      live = await liveDescription(own.infra, prefix, own.settings());
    } finally {
      await own.remove();
    }
  }, 120_000);

  it(
    'when the system serves /openapi.json, ' +
      'then it is the committed libs/api-types/openapi.json (npm run api:update)',
    () => {
      expect(live).toBe(readFileSync(DESCRIPTION_FILE, 'utf8'));
    },
  );

  it('when the types are generated from it, then they are the committed ones', () => {
    expect(generateTypes(DESCRIPTION_FILE)).toBe(readFileSync(TYPES_FILE, 'utf8'));
  });

  it(
    'when a portal developer reads it, then every operation has an id, ' +
      'a summary, an audience tag and its problems',
    () => {
      const doc = JSON.parse(live) as {
        paths: Record<
          string,
          Record<
            string,
            { operationId?: string; summary?: string; tags?: string[]; responses: Record<string, unknown> }
          >
        >;
        tags: Array<{ name: string }>;
      };
      const tagNames = new Set(doc.tags.map((t) => t.name));
      const ids = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (!['get', 'put', 'post', 'delete'].includes(method)) continue;
          const where = `${method.toUpperCase()} ${path}`;
          expect([where, op.operationId && !ids.has(op.operationId)]).toEqual([where, true]);
          ids.add(op.operationId!);
          expect([where, (op.summary ?? '').length > 5]).toEqual([where, true]);
          expect([where, (op.tags ?? []).every((t) => tagNames.has(t)) && (op.tags ?? []).length > 0]).toEqual([
            where,
            true,
          ]);
          if (!path.startsWith('/health'))
            expect([where, Object.keys(op.responses)]).toEqual([where, expect.arrayContaining(['400', '401'])]);
        }
      }
      expect(ids.size).toBeGreaterThan(35);
    },
  );
});
