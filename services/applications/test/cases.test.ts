import { randomUUID } from 'node:crypto';
import { applications, auditEvent } from '@register/contracts';
import { sql } from 'kysely';
import type { EventEnvelope } from '@register/service-kit';
import type { Identity } from '@register/authz';
import { asUser, caseHandler, eventually, practitioner, uniqueSubject } from '@register/testkit';
import { insertSubmitted, ordered, pageThrough, subMillisecondRows } from './support/list-rows';
import { as, startNeighboursSystem, type NeighboursSystem } from './support/neighbours-system';

let system: NeighboursSystem;
const seen: EventEnvelope[] = [];
beforeAll(async () => {
  system = await startNeighboursSystem();
  // Core subscription on the stream's subjects: sees what the outbox relay publishes.
  system.apps.events.subscribe(
    'register.>',
    (msg) => void seen.push({ ...(JSON.parse(msg.payload) as EventEnvelope), subject: msg.subject } as EventEnvelope),
  );
  await system.apps.events.nc.flush();
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

async function submitted(system: NeighboursSystem) {
  const me = as.practitioner(system);
  const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
  const doc = await system.documents.upload(me.subject, 'intake', 'diploma');
  const res = await me.post(`/api/v1/applications/${id}/submit`, {
    diplomaHerkomst: 'handmatig',
    uren: 3000,
    documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
  });
  return { me, id: id as string, doc, referentie: res.body.referentie as string };
}

const waitFor = (pred: (e: EventEnvelope & { subject?: string }) => boolean) => eventually(async () => seen.find(pred));

describe('the journey: create → draft → upload → submit → werkvoorraad → beoordeling → besluit', () => {
  it('when a practitioner submits and a beoordelaar decides, then every step shows the contract shapes', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect(
      (await me.put(`/api/v1/applications/${id}`, { draft: { stap: 1 }, stepIndex: 2, stepCount: 3 })).status,
    ).toBe(204);
    const doc = await system.documents.upload(me.subject, 'intake', 'diploma');
    const sub = await me.post(`/api/v1/applications/${id}/submit`, {
      diplomaHerkomst: 'handmatig',
      uren: 3000,
      documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
    });
    expect(sub.status).toBe(200);

    const queue = await as.beoordelaar(system).get('/api/v1/werkvoorraad');
    expect(queue.status).toBe(200);
    const item = queue.body.find((a: { id: string }) => a.id === id);
    expect(item).toMatchObject({
      owner: `******${me.subject.slice(-3)}`,
      status: { tag: 'Ingediend', referentie: sub.body.referentie },
    });

    const view = await as.beoordelaar(system).get(`/api/v1/beoordeling/${id}`);
    expect(view.status).toBe(200);
    expect(Object.keys(view.body).sort()).toEqual(['aanvraag', 'decisions', 'documenten']);
    expect(view.body.aanvraag.owner).toBe(`******${me.subject.slice(-3)}`);
    expect(view.body.documenten).toEqual([{ documentId: doc, categoryId: 'diploma', fileName: 'bewijs.pdf' }]);
    expect(view.body.decisions).toEqual({ canBesluiten: true });

    const besluit = await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, { besluit: 'toekennen' });
    expect(besluit.status).toBe(200);
    expect(besluit.body).toEqual({
      status: {
        tag: 'Toegekend',
        stepIndex: 2,
        stepCount: 3,
        referentie: sub.body.referentie,
        manual: false,
        reden: null,
      },
    });
    expect((await as.beoordelaar(system).get(`/api/v1/beoordeling/${id}`)).body.decisions).toEqual({
      canBesluiten: false,
    });
    expect(
      (await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, { besluit: 'toekennen' })).status,
    ).toBe(409);
    expect((await me.get(`/api/v1/applications/${id}`)).body.status.tag).toBe('Toegekend');
    const event = await waitFor(
      (e) => e.type === 'application.decided' && (e.data as { applicationId?: string }).applicationId === id,
    );
    expect((event as { subject?: string }).subject).toBe(applications.events.decided.subject);
    expect(event.data).toEqual({
      applicationId: id,
      referentie: sub.body.referentie,
      type: 'intake',
      besluit: 'toekennen',
      status: 'Toegekend',
      decidedAt: expect.stringMatching(/Z$/),
    });
    expect(applications.events.decided.data.safeParse(event.data).success).toBe(true);
  });
});

describe('application.submitted', () => {
  it(
    'when submitted, then the event carries the referentie, documents and ' +
      'submittedAt the application got, and no owner',
    async () => {
      const { me, id, doc, referentie } = await submitted(system);
      const detail = (await me.get(`/api/v1/applications/${id}`)).body;
      const event = await waitFor(
        (e) => e.type === 'application.submitted' && (e.data as { applicationId?: string }).applicationId === id,
      );
      expect((event as { subject?: string }).subject).toBe(applications.events.submitted.subject);
      // No personal data on the bus (issue 11): consumers that need the practitioner ask the internal API.
      expect(event.data).toEqual({
        applicationId: id,
        referentie,
        type: 'intake',
        documentIds: [doc],
        submittedAt: detail.submittedAt,
      });
      expect(applications.events.submitted.data.safeParse(event.data).success).toBe(true);
      expect(referentie).toMatch(/^AV-\d{4}-\d{6}$/);
    },
  );
});

describe('GET /api/v1/werkvoorraad', () => {
  it('when listed, then only Ingediend, oldest submittedAt first, paged with Link', async () => {
    const a = await submitted(system);
    const b = await submitted(system);
    await as.practitioner(system).post('/api/v1/applications', { type: 'intake' });
    const all = (await as.beoordelaar(system).get('/api/v1/werkvoorraad')).body as Array<{
      id: string;
      submittedAt: string;
      status: { tag: string };
    }>;
    expect(all.every((x) => x.status.tag === 'Ingediend')).toBe(true);
    expect(all.map((x) => x.submittedAt)).toEqual([...all.map((x) => x.submittedAt)].sort());
    expect(all.findIndex((x) => x.id === a.id)).toBeLessThan(all.findIndex((x) => x.id === b.id));
    const detail = (await a.me.get(`/api/v1/applications/${a.id}`)).body;
    expect(all.find((x) => x.id === a.id)).toMatchObject({
      createdAt: detail.createdAt,
      updatedAt: detail.updatedAt,
      submittedAt: detail.submittedAt,
    });

    const first = await as.beoordelaar(system).get('/api/v1/werkvoorraad?limit=1');
    expect(first.body).toHaveLength(1);
    const link = first.headers.get('link')!;
    expect(link).toMatch(/^<\/api\/v1\/werkvoorraad\?limit=1&cursor=[^>]+>; rel="next"$/);
    const second = await as.beoordelaar(system).get(link.slice(1, link.indexOf('>')));
    expect(second.body[0].id).toBe(all[1]!.id);
  });

  it(
    'when rows differ only in microseconds or share a timestamp, then paging lists ' +
      'each exactly once, oldest first',
    async () => {
      const rows = subMillisecondRows('2002-03-04T05:06:07.891');
      await insertSubmitted(system.apps.db, uniqueSubject(), rows);
      const ours = new Set(rows.map((r) => r.id));

      const items = await pageThrough<{ id: string }>(as.beoordelaar(system), '/api/v1/werkvoorraad?limit=2');

      expect(items.map((i) => i.id).filter((id) => ours.has(id))).toEqual(ordered(rows, 'asc'));
    },
  );

  it('when no limit is sent and 1001 are waiting, then 1000 come back with a Link (ADR 0014)', async () => {
    const owner = uniqueSubject();
    // Older than every other row here, so they fill the first page; removed again so other tests see their own.
    const ids = await insertThousandAndOne(system, owner, '1990-01-01T00:00:00Z');
    try {
      const first = await as.beoordelaar(system).get('/api/v1/werkvoorraad');
      expect(first.status).toBe(200);
      expect(first.body.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 1000));
      expect(first.headers.get('link')).toMatch(/^<\/api\/v1\/werkvoorraad\?cursor=[^>]+>; rel="next"$/);
      const cases = await as.admin(system).get('/api/v1/admin/cases');
      expect(cases.body.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 1000));
      expect(cases.headers.get('link')).toMatch(/^<\/api\/v1\/admin\/cases\?cursor=[^>]+>; rel="next"$/);
    } finally {
      await sql`DELETE FROM applications WHERE owner = ${owner}`.execute(system.apps.db);
    }
  });

  it('when the caller lacks CanBeoordelen, then 403; without identity 401', async () => {
    expect((await as.practitioner(system).get('/api/v1/werkvoorraad')).status).toBe(403);
    expect((await as.caseHandlerWithout(system).get('/api/v1/werkvoorraad')).status).toBe(403);
    expect((await as.nobody(system).get('/api/v1/werkvoorraad')).status).toBe(401);
  });
});

describe('beoordeling and besluit', () => {
  it('when the case is a Concept or unknown, then 404', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect((await as.beoordelaar(system).get(`/api/v1/beoordeling/${id}`)).status).toBe(404);
    expect(
      (await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, { besluit: 'toekennen' })).status,
    ).toBe(404);
    expect((await as.beoordelaar(system).get('/api/v1/beoordeling/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await as.beoordelaar(system).get('/api/v1/beoordeling/x')).status).toBe(404);
  });

  it.each([
    [{ besluit: 'goedkeuren' }, 'besluit'],
    [{}, 'besluit'],
    [{ besluit: 'afwijzen' }, 'toelichting'],
    [{ besluit: 'buiten-behandeling', toelichting: '  ' }, 'toelichting'],
  ])('when the besluit is %j, then 400 naming %s', async (body, field) => {
    const { id } = await submitted(system);
    const res = await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, body);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it.each([
    ['afwijzen', 'Afgewezen'],
    ['buiten-behandeling', 'BuitenBehandeling'],
  ])('when %s with a toelichting, then %s', async (besluit, tag) => {
    const { id } = await submitted(system);
    const res = await as
      .beoordelaar(system)
      .post(`/api/v1/beoordeling/${id}/besluit`, { besluit, toelichting: 'Onvoldoende bewijs' });
    expect(res.status).toBe(200);
    expect(res.body.status.tag).toBe(tag);
  });

  it(
    'when a case handler opens or decides their own application (both identities on ' +
      'one request), then 403 with one deny row each, and another case handler may',
    async () => {
      const { me, id } = await submitted(system);
      const both: Identity = {
        ...caseHandler('mw-own', ['beoordelaar']),
        practitioner: { subject: me.subject, role: 'drafter' },
      };
      const send = async (method: string, path: string, correlationId: string, body?: unknown) => {
        const res = await fetch(`${system.apps.url}${path}`, {
          method,
          headers: { ...asUser(both, correlationId), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, type: res.status === 403 ? ((await res.json()) as { type: string }).type : null };
      };
      const opened = `own-open-${randomUUID()}`;
      const decided = `own-decide-${randomUUID()}`;
      expect(await send('GET', `/api/v1/beoordeling/${id}`, opened)).toEqual({
        status: 403,
        type: '/problems/forbidden',
      });
      expect(await send('POST', `/api/v1/beoordeling/${id}/besluit`, decided, { besluit: 'toekennen' })).toEqual({
        status: 403,
        type: '/problems/forbidden',
      });
      // A later denial settles the outbox: what the two requests wrote was published before it.
      const settle = `own-settle-${randomUUID()}`;
      expect((await send('GET', `/api/v1/beoordeling/${id}`, settle)).status).toBe(403);
      await waitFor((e) => e.correlationId === settle);
      const rows = (correlationId: string) =>
        seen
          .filter((e) => e.correlationId === correlationId)
          .map((e) => ({
            subject: (e as { subject?: string }).subject?.replace(/^.*?(register\.)/, '$1'),
            data: e.data,
          }));
      expect(rows(opened)).toEqual([
        {
          subject: auditEvent('applications').subject,
          data: { action: 'beoordeling', resource: '/api/v1/beoordeling/:id', decision: 'deny', role: 'drafter' },
        },
      ]);
      expect(rows(decided)).toEqual([
        {
          subject: auditEvent('applications').subject,
          data: { action: 'besluit', resource: '/api/v1/beoordeling/:id/besluit', decision: 'deny', role: 'drafter' },
        },
      ]);
      expect(JSON.stringify(rows(opened))).not.toContain(me.subject);
      const other = await as.beoordelaar(system).get(`/api/v1/beoordeling/${id}`);
      expect([other.status, other.body.decisions.canBesluiten]).toEqual([200, true]);
    },
  );

  it('when the caller lacks CanBeoordelen, then 403 before 404', async () => {
    expect((await as.practitioner(system).get('/api/v1/beoordeling/x')).status).toBe(403);
    expect((await as.admin(system).post('/api/v1/beoordeling/x/besluit', { besluit: 'toekennen' })).status).toBe(403);
  });
});

describe('admin cases', () => {
  it('when an admin lists, then every application with owner masked; delete removes it and audits', async () => {
    const { id, me } = await submitted(system);
    const concept = (await as.practitioner(system).post('/api/v1/applications', { type: 'intake' })).body.id;
    const list = (await as.admin(system).get('/api/v1/admin/cases')).body as Array<{ id: string; owner: string }>;
    expect(list.map((c) => c.id)).toEqual(expect.arrayContaining([id, concept]));
    expect(list.every((c) => /^\*+\d{3}$/.test(c.owner))).toBe(true);

    const correlationId = `admin-delete-${randomUUID()}`;
    const removed = await fetch(`${system.apps.url}/api/v1/admin/cases/${id}`, {
      method: 'DELETE',
      headers: asUser(practitioner('100000009', 'admin'), correlationId),
    });
    expect(removed.status).toBe(204);
    expect((await as.admin(system).delete(`/api/v1/admin/cases/${id}`)).status).toBe(404);
    expect((await me.get(`/api/v1/applications/${id}`)).status).toBe(404);
    // This delete's own events, by its correlation id (other tests delete cases and audit too).
    const audit = await waitFor((e) => e.type === 'audit' && e.correlationId === correlationId);
    expect(audit.data).toEqual({ action: 'case:admin-delete', resource: 'case', decision: 'allow', role: 'admin' });
    expect((audit as { subject?: string }).subject).toBe(auditEvent('applications').subject);
    // The documents service removes the case's documents on this event; it names the application, nobody else.
    const deleted = await waitFor((e) => e.type === 'application.deleted' && e.correlationId === correlationId);
    expect(deleted.data).toEqual({ applicationId: id });
    expect((deleted as { subject?: string }).subject).toBe(applications.events.deleted.subject);
  });

  it(
    'when rows differ only in microseconds or share a timestamp, then paging lists ' +
      'each exactly once, oldest first',
    async () => {
      const rows = subMillisecondRows('2003-04-05T06:07:08.912');
      await insertSubmitted(system.apps.db, uniqueSubject(), rows);
      const ours = new Set(rows.map((r) => r.id));

      const items = await pageThrough<{ id: string }>(as.admin(system), '/api/v1/admin/cases?limit=2');

      expect(items.map((i) => i.id).filter((id) => ours.has(id))).toEqual(ordered(rows, 'asc'));
    },
  );

  it('when not admin, then 403', async () => {
    expect((await as.practitioner(system).get('/api/v1/admin/cases')).status).toBe(403);
    expect((await as.beoordelaar(system).delete('/api/v1/admin/cases/x')).status).toBe(403);
  });
});
