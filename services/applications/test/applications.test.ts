import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { holdLock } from '@register/testkit';
import { cursorOf, insertSubmitted, ordered, pageThrough, subMillisecondRows } from './support/list-rows';
import { as, startNeighboursSystem, type NeighboursSystem } from './support/neighbours-system';

let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
});
afterAll(() => system.close());

/** 1001 submitted applications of `owner`, a second apart from `from` (one statement); their ids oldest first. */
async function insertThousandAndOne(system: NeighboursSystem, owner: string, from: string): Promise<string[]> {
  const { rows } = await sql<{
    id: string;
    created_at: Date;
  }>`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at, submitted_at)
    SELECT gen_random_uuid(), ${owner}, 'intake', 'Ingediend', '[]'::jsonb, t, t, t
    FROM (SELECT ${from}::timestamptz + n * interval '1 second' AS t FROM generate_series(1, 1001) AS n) AS s
    RETURNING id, created_at`.execute(system.apps.db);
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map((r) => r.id);
}

const summaryKeys = ['createdAt', 'documentIds', 'id', 'owner', 'status', 'submittedAt', 'type', 'updatedAt'];
const detailKeys = ['createdAt', 'documentIds', 'draft', 'id', 'status', 'submittedAt', 'type', 'updatedAt'];
const statusKeys = ['manual', 'reden', 'referentie', 'stepCount', 'stepIndex', 'tag'];

describe('POST /api/v1/applications', () => {
  it('when an intake is created, then 201 with Location and a closed ApplicationDetail', async () => {
    const me = as.practitioner(system);
    const res = await me.post('/api/v1/applications', { type: 'intake' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/applications/${res.body.id}`);
    expect(Object.keys(res.body).sort()).toEqual(detailKeys);
    expect(Object.keys(res.body.status).sort()).toEqual(statusKeys);
    expect(res.body).toMatchObject({
      type: 'intake',
      draft: null,
      documentIds: [],
      submittedAt: null,
      status: { tag: 'Concept', stepIndex: null, stepCount: null, referentie: null, manual: false, reden: null },
    });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('when the type is unknown or missing, then 400', async () => {
    const me = as.practitioner(system);
    expect((await me.post('/api/v1/applications', { type: 'verhuizing' })).status).toBe(400);
    const res = await me.post('/api/v1/applications', {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('type');
  });

  it('when a Concept of that type exists, then 409; another type is fine', async () => {
    const me = as.practitioner(system, '900000001');
    const first = await me.post('/api/v1/applications', { type: 'herregistratie' });
    expect(first.status).toBe(201);
    try {
      const again = await me.post('/api/v1/applications', { type: 'herregistratie' });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe('/problems/conflict');
      const other = await me.post('/api/v1/applications', { type: 'intake' });
      expect(other.status).toBe(201);
      expect(other.body).toMatchObject({ type: 'intake', status: { tag: 'Concept' } });
      expect((await me.delete(`/api/v1/applications/${other.body.id}`)).status).toBe(204);
    } finally {
      expect((await me.delete(`/api/v1/applications/${first.body.id}`)).status).toBe(204);
    }
  });

  it('when five creates race, then exactly one Concept is made', async () => {
    const me = as.practitioner(system);
    // The barrier: every insert waits on this test's lock on the table until all five are in flight together.
    const hold = await holdLock(system.apps.databaseUrl, 'LOCK TABLE applications IN SHARE MODE');
    const racing = Promise.all(Array.from({ length: 5 }, () => me.post('/api/v1/applications', { type: 'intake' })));
    try {
      await hold.waiting(5);
    } finally {
      await hold.release();
    }
    const results = await racing;
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const { rows } = await sql<{ id: string }>`SELECT id FROM applications
      WHERE owner = ${me.subject} AND type = 'intake' AND status_tag = 'Concept'`.execute(system.apps.db);
    expect(rows.map((r) => r.id)).toEqual([results.find((r) => r.status === 201)!.body.id]);
  });

  it('when no identity, then 401; a case handler without practitioner identity gets 403', async () => {
    expect((await as.nobody(system).post('/api/v1/applications', { type: 'intake' })).status).toBe(401);
    expect((await as.beoordelaar(system).post('/api/v1/applications', { type: 'intake' })).status).toBe(403);
  });
});

describe('GET /openapi.json', () => {
  it(
    'when the description is read, then every public route of the applications ' +
      'context is there with its operationId',
    async () => {
      const { applications } = await import('@register/contracts');
      const doc = (await (await fetch(`${system.apps.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
      };
      for (const rule of Object.values(applications.routes)) {
        const path = rule.path.replace(/:([A-Za-z]+)/g, '{$1}');
        expect([rule.method, path, doc.paths[path]?.[rule.method.toLowerCase()]?.operationId]).toEqual([
          rule.method,
          path,
          expect.any(String),
        ]);
      }
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal'))).toBe(false);
    },
  );
});

describe('GET /api/v1/applications', () => {
  it('when listed, then only the caller own applications, owner unmasked, newest first, with paging', async () => {
    const me = as.practitioner(system);
    // Two of the caller's own (the first submitted, so a second intake may be made), and another's.
    const older = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect(
      (await me.post(`/api/v1/applications/${older.id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 })).status,
    ).toBe(200);
    const newer = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    await as.practitioner(system).post('/api/v1/applications', { type: 'intake' });

    const list = await me.get('/api/v1/applications');
    expect(list.status).toBe(200);
    expect(list.body.map((a: { id: string }) => a.id)).toEqual([newer.id, older.id]);
    expect(Object.keys(list.body[0]).sort()).toEqual(summaryKeys);
    expect(list.body.map((a: { owner: string }) => a.owner)).toEqual([me.subject, me.subject]);
    expect(list.headers.get('link')).toBeNull();

    const page1 = await me.get('/api/v1/applications?limit=1');
    expect(page1.body.map((a: { id: string }) => a.id)).toEqual([newer.id]);
    const link = page1.headers.get('link')!;
    expect(link).toMatch(/^<\/api\/v1\/applications\?limit=1&cursor=[^>]+>; rel="next"$/);
    const page2 = await me.get(link.slice(1, link.indexOf('>')));
    expect(page2.body.map((a: { id: string }) => a.id)).toEqual([older.id]);
    expect(page2.headers.get('link')).toBeNull();
  });

  it(
    'when no limit is sent and the caller has 1001 applications, then 1000 come back ' +
      'with a Link to the last one (ADR 0014)',
    async () => {
      const me = as.practitioner(system);
      const ids = await insertThousandAndOne(system, me.subject, '2004-01-01T00:00:00Z');
      try {
        const first = await me.get('/api/v1/applications');
        expect(first.status).toBe(200);
        // Newest first: the 1000 newest, then the oldest one on the next page.
        expect(first.body.map((a: { id: string }) => a.id)).toEqual([...ids].reverse().slice(0, 1000));
        const link = first.headers.get('link');
        expect(link).toMatch(/^<\/api\/v1\/applications\?cursor=[^>]+>; rel="next"$/);
        const rest = await me.get(link!.slice(1, link!.indexOf('>')));
        expect(rest.body.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
        expect(rest.headers.get('link')).toBeNull();
      } finally {
        await sql`DELETE FROM applications WHERE owner = ${me.subject}`.execute(system.apps.db);
      }
    },
  );

  it('when limit is out of range, then 400', async () => {
    const me = as.practitioner(system);
    expect((await me.get('/api/v1/applications?limit=0')).status).toBe(400);
    expect((await me.get('/api/v1/applications?limit=1001')).status).toBe(400);
  });

  it(
    'when rows differ only in microseconds or share a timestamp, then paging lists ' +
      'each exactly once, newest first',
    async () => {
      const me = as.practitioner(system);
      const rows = subMillisecondRows('2001-02-03T04:05:06.789');
      await insertSubmitted(system.apps.db, me.subject, rows);

      const items = await pageThrough<{ id: string; createdAt: string }>(me, '/api/v1/applications?limit=2');

      expect(items.map((i) => i.id)).toEqual(ordered(rows, 'desc'));
      // The API keeps milliseconds; only the cursor is exact.
      expect(items.find((i) => i.id === rows[1]!.id)!.createdAt).toBe('2001-02-03T04:05:06.789Z');
    },
  );

  it.each([
    [
      'a cursor of an earlier version (milliseconds)',
      200,
      cursorOf({ at: '2001-02-03T04:05:06.789Z', id: randomUUID() }),
    ],
    ['garbage', 400, 'garbage'],
    ['a timestamp PostgreSQL cannot read', 400, cursorOf({ at: '0000-01-01T00:00:00.000000Z', id: randomUUID() })],
    ['a word PostgreSQL reads as a timestamp', 400, cursorOf({ at: 'yesterday', id: randomUUID() })],
  ])('when the cursor is %s, then %i', async (_name, status, cursor) => {
    const res = await as.practitioner(system).get(`/api/v1/applications?limit=2&cursor=${cursor}`);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.errors[0]).toMatchObject({ field: 'cursor', code: 'invalid_cursor' });
  });
});

describe('GET/PUT/DELETE /api/v1/applications/:id', () => {
  it('when the draft is synced, then 204 and it reads back', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    const res = await me.put(`/api/v1/applications/${id}`, {
      draft: { stap: 'diploma', antwoorden: [1, 2] },
      stepIndex: 1,
      stepCount: 4,
      documentIds: ['d1'],
    });
    expect(res.status).toBe(204);
    const back = await me.get(`/api/v1/applications/${id}`);
    expect(back.body).toMatchObject({
      draft: { stap: 'diploma', antwoorden: [1, 2] },
      documentIds: ['d1'],
      status: { stepIndex: 1, stepCount: 4 },
    });
  });

  it.each([
    ['stepCount 0', { draft: {}, stepIndex: 0, stepCount: 0 }, 'stepCount'],
    ['stepIndex -1', { draft: {}, stepIndex: -1, stepCount: 3 }, 'stepIndex'],
    ['stepIndex = stepCount', { draft: {}, stepIndex: 3, stepCount: 3 }, 'stepIndex'],
    ['stepIndex missing', { draft: {}, stepCount: 3 }, 'stepIndex'],
    ['draft over 256 KiB', { draft: 'x'.repeat(256 * 1024), stepIndex: 0, stepCount: 1 }, 'draft'],
    ['stepCount past a 32-bit integer', { draft: {}, stepIndex: 0, stepCount: 2 ** 31 }, 'stepCount'],
    ['stepIndex as a string', { draft: {}, stepIndex: '0', stepCount: 1 }, 'stepIndex'],
  ])('when %s, then 400 naming the field', async (_n, body, field) => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    const res = await me.put(`/api/v1/applications/${id}`, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('when the draft is exactly 256 KiB serialized, then 204', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect(
      (await me.put(`/api/v1/applications/${id}`, { draft: 'x'.repeat(256 * 1024 - 2), stepIndex: 0, stepCount: 1 }))
        .status,
    ).toBe(204);
  });

  it('when another subject asks, then 404 on every route', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    const other = as.practitioner(system);
    expect((await other.get(`/api/v1/applications/${id}`)).status).toBe(404);
    const put = await other.put(`/api/v1/applications/${id}`, { draft: {}, stepIndex: 0, stepCount: 1 });
    expect(put.status).toBe(404);
    expect(put.body).toBeNull();
    expect((await other.delete(`/api/v1/applications/${id}`)).status).toBe(404);
    expect(
      (await other.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 })).status,
    ).toBe(404);
    expect((await other.get('/api/v1/applications')).body).toEqual([]);
    expect((await me.get(`/api/v1/applications/${id}`)).status).toBe(200);
  });

  it('when the id is not a uuid, then 404', async () => {
    expect((await as.practitioner(system).get('/api/v1/applications/nope')).status).toBe(404);
  });

  it('when deleted in Concept, then 204 and gone; after submit, delete and sync are 409', async () => {
    const me = as.practitioner(system);
    const first = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect((await me.delete(`/api/v1/applications/${first.id}`)).status).toBe(204);
    expect((await me.get(`/api/v1/applications/${first.id}`)).status).toBe(404);

    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect(
      (await me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 })).status,
    ).toBe(200);
    expect((await me.delete(`/api/v1/applications/${id}`)).status).toBe(409);
    expect((await me.put(`/api/v1/applications/${id}`, { draft: {}, stepIndex: 0, stepCount: 1 })).status).toBe(409);
    expect((await me.put(`/api/v1/applications/${id}`, { draft: {}, stepIndex: 5, stepCount: 1 })).status).toBe(400);
  });
});
