import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { newEvent } from '@register/service-kit';
import { AUDIT_SUBJECTS } from '@register/contracts';
import { V1_VARIANTS, asUser, eventually, practitioner, v1Event, v1Sample } from '@register/testkit';
import { auditEvent, consumedThrough, publish, startAuditSystem, type AuditSystem } from './support/system';

let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(async () => h.close());

const admin = asUser(practitioner('900000001', 'admin'));
const get = (path: string, headers = admin) => fetch(`${h.url}${path}`, { headers });
const corr = () => `corr-audit-${randomUUID()}`;

async function pageThrough(path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let next: string | null = path;
  while (next) {
    const res = await get(next);
    expect(res.status).toBe(200);
    items.push(...((await res.json()) as unknown[]));
    const link = res.headers.get('link');
    next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  }
  return items;
}

async function rowsOf(correlationId: string, count: number): Promise<Array<Record<string, unknown>>> {
  return eventually(async () => {
    const body = (await (await get(`/api/v1/admin/audit?correlationId=${correlationId}`)).json()) as Array<
      Record<string, unknown>
    >;
    return body.length >= count ? body : undefined;
  });
}

// ADR 0228: the v1.0.0 sample of every audit subject, as published and with a field the consumer does not know.
// Each payload goes out on this system's own audit subject (the consumer reads every `register.audit.*` alike),
// so no other test file's consumer stores it.
describe('the audit consumer and the v1.0.0 audit events', () => {
  const V1_AUDIT_SUBJECTS = ['applications', 'audit', 'documents', 'gateway', 'letters', 'reference'].map(
    (service) => `${AUDIT_SUBJECTS.slice(0, -1)}${service}`,
  );

  it.each(V1_VARIANTS)(
    'when the v1.0.0 sample of every audit subject arrives %s, then each becomes its row',
    async (variant) => {
      const sent = V1_AUDIT_SUBJECTS.map((subject) => {
        const { data, envelope } = v1Event(subject, variant);
        return { subject, event: { ...newEvent('audit', data, corr()), ...envelope } };
      });
      for (const { event } of sent) await publish(h, event);
      // The row holds what v1.0.0 sent, and nothing of a field it did not know.
      for (const { subject, event } of sent)
        expect(await rowsOf(event.correlationId!, 1)).toEqual([
          { at: event.occurredAt, ...v1Sample(subject), correlationId: event.correlationId },
        ]);
    },
  );
});

describe('GET /api/v1/admin/audit', () => {
  it(
    'when audit events are published, ' + 'then an admin reads them newest first in the exact AuthzAudit shape',
    async () => {
      const correlationId = corr();
      const t0 = Date.parse('2026-11-22T09:30:00.000Z');
      const older = auditEvent({
        correlationId,
        action: 'reveal-registernummer',
        resource: 'brief',
        decision: 'deny',
        role: 'approver',
        occurredAt: new Date(t0),
      });
      const newer = auditEvent({
        correlationId,
        action: 'flag:set',
        resource: 'flag/herregistratie-aanvragen',
        occurredAt: new Date(t0 + 1500),
      });
      await publish(h, newer);
      await publish(h, older);

      const rows = await rowsOf(correlationId, 2);

      expect(rows).toEqual([
        {
          at: '2026-11-22T09:30:01.500Z',
          action: 'flag:set',
          resource: 'flag/herregistratie-aanvragen',
          decision: 'allow',
          role: 'admin',
          correlationId,
        },
        {
          at: '2026-11-22T09:30:00.000Z',
          action: 'reveal-registernummer',
          resource: 'brief',
          decision: 'deny',
          role: 'approver',
          correlationId,
        },
      ]);
      const unfiltered = (await (await get('/api/v1/admin/audit?limit=50')).json()) as Array<{ at: string }>;
      expect(unfiltered.map((r) => r.at)).toEqual(
        unfiltered
          .map((r) => r.at)
          .sort()
          .reverse(),
      );
      expect(Object.keys(unfiltered[0] as object).sort()).toEqual([
        'action',
        'at',
        'correlationId',
        'decision',
        'resource',
        'role',
      ]);
    },
  );

  it(
    'when the same event arrives twice (a redelivery the broker does not dedupe), ' + 'then it is stored once',
    async () => {
      const correlationId = corr();
      const event = auditEvent({ correlationId });
      await publish(h, event);
      const seq = await publish(h, event, `${event.id}-again`);

      await eventually(() => consumedThrough(h.events, h.durable, seq));

      expect(await rowsOf(correlationId, 1)).toHaveLength(1);
    },
  );

  it(
    'when more rows remain than the limit, ' + 'then Link rel="next" pages through all of them once, newest first',
    async () => {
      const correlationId = corr();
      const t0 = Date.parse('2026-11-22T10:00:00.000Z');
      // Two share a timestamp: the event id breaks the tie, so none is skipped or repeated.
      const offsets = [0, 1000, 1000, 2000, 3000];
      const events = offsets.map((o) => auditEvent({ correlationId, occurredAt: new Date(t0 + o) }));
      for (const e of events) await publish(h, e);
      await rowsOf(correlationId, 5);

      const pages: Array<Array<{ at: string }>> = [];
      const links: Array<string | null> = [];
      let path: string | null = `/api/v1/admin/audit?limit=2&correlationId=${correlationId}`;
      while (path) {
        const res = await get(path);
        expect(res.status).toBe(200);
        pages.push((await res.json()) as Array<{ at: string }>);
        const link = res.headers.get('link');
        links.push(link);
        path = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      }

      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(links[0]).toMatch(/^<\/api\/v1\/admin\/audit\?limit=2&correlationId=[^&]+&cursor=[^>]+>; rel="next"$/);
      expect(links[2]).toBeNull();
      const ats = pages.flat().map((r) => r.at);
      expect(ats).toEqual([
        '2026-11-22T10:00:03.000Z',
        '2026-11-22T10:00:02.000Z',
        '2026-11-22T10:00:01.000Z',
        '2026-11-22T10:00:01.000Z',
        '2026-11-22T10:00:00.000Z',
      ]);
    },
  );

  it(
    'when rows differ only in microseconds or share a timestamp, ' +
      'then paging lists each exactly once, newest first',
    async () => {
      const correlationId = corr();
      // Written by SQL as a backfill would: several rows inside one millisecond, two sharing a timestamp.
      const ats = ['05.999500', '06.789001', '06.789002', '06.789002', '06.789003', '06.789999', '06.790000'].map(
        (s) => `2026-11-22T11:00:${s}Z`,
      );
      const rows = ats.map((at, i) => ({ at, eventId: randomUUID(), resource: `row/${i}` }));
      for (const r of rows) {
        await sql`INSERT INTO authz_audit (event_id, at, action, resource, decision, role, correlation_id, service)
        VALUES (${r.eventId}::uuid, ${r.at}::timestamptz, 'flag:set', ${r.resource}, 'allow', 'admin', ${correlationId},
          'test')`.execute(h.db);
      }
      const cmp = (x: string, y: string) => (x < y ? 1 : x > y ? -1 : 0);
      const newestFirst = [...rows].sort((a, b) => cmp(a.at, b.at) || cmp(a.eventId, b.eventId));

      const listed = (await pageThrough(`/api/v1/admin/audit?limit=2&correlationId=${correlationId}`)) as Array<{
        at: string;
        resource: string;
      }>;

      expect(listed.map((r) => r.resource)).toEqual(newestFirst.map((r) => r.resource));
      // The API keeps milliseconds; only the cursor is exact.
      expect(listed.find((r) => r.resource === 'row/1')?.at).toBe('2026-11-22T11:00:06.789Z');
    },
  );

  it('when the cursor is one an earlier version issued (milliseconds), then it is still accepted', async () => {
    const cursor = Buffer.from(JSON.stringify(['2026-11-22T11:00:06.789Z', randomUUID()])).toString('base64url');
    expect((await get(`/api/v1/admin/audit?limit=2&cursor=${cursor}`)).status).toBe(200);
  });

  it(
    'when no limit is sent and 1001 rows match, ' + 'then 1000 come back with a Link to the last one (ADR 0014)',
    async () => {
      const correlationId = corr();
      await sql`INSERT INTO authz_audit (event_id, at, action, resource, decision, role, correlation_id, service)
      SELECT gen_random_uuid(), '2026-11-22T12:00:00Z'::timestamptz + n * interval '1 millisecond', 'flag:set',
        'row/' || n, 'allow', 'admin', ${correlationId}, 'test'
      FROM generate_series(1, 1001) AS n`.execute(h.db);

      const first = await get(`/api/v1/admin/audit?correlationId=${correlationId}`);
      expect(first.status).toBe(200);
      const rows = (await first.json()) as Array<{ resource: string }>;
      expect(rows).toHaveLength(1000);
      expect(rows[0]?.resource).toBe('row/1001');
      const link = first.headers.get('link');
      expect(link).toMatch(/^<\/api\/v1\/admin\/audit\?correlationId=[^&]+&cursor=[^>]+>; rel="next"$/);
      const rest = await get(link!.slice(1, link!.indexOf('>')));
      expect(((await rest.json()) as Array<{ resource: string }>).map((r) => r.resource)).toEqual(['row/1']);
      expect(rest.headers.get('link')).toBeNull();
      await sql`DELETE FROM authz_audit WHERE correlation_id = ${correlationId}`.execute(h.db);
    },
  );

  it('when the limit equals the remaining rows, then no Link is sent', async () => {
    const correlationId = corr();
    for (let i = 0; i < 2; i++) await publish(h, auditEvent({ correlationId }));
    await rowsOf(correlationId, 2);
    const res = await get(`/api/v1/admin/audit?limit=2&correlationId=${correlationId}`);
    expect(res.headers.get('link')).toBeNull();
  });

  it('when filtered by action, then only that action is listed', async () => {
    const correlationId = corr();
    await publish(h, auditEvent({ correlationId, action: 'case:admin-delete' }));
    await publish(h, auditEvent({ correlationId, action: 'document:admin-delete' }));
    await rowsOf(correlationId, 2);
    const body = (await (
      await get(`/api/v1/admin/audit?correlationId=${correlationId}&action=case:admin-delete`)
    ).json()) as Array<{ action: string }>;
    expect(body.map((r) => r.action)).toEqual(['case:admin-delete']);
  });

  it('when a drafter asks, then 403; without the gateway signature 401', async () => {
    const res = await get('/api/v1/admin/audit', asUser(practitioner('900000001', 'drafter')));
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await fetch(`${h.url}/api/v1/admin/audit`)).status).toBe(401);
  });

  const farPastCursor = Buffer.from(
    JSON.stringify(['0000-01-01T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000']),
  ).toString('base64url');
  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=x', 'limit'],
    ['cursor=garbage', 'cursor'],
    [`cursor=${Buffer.from('["x","y"]').toString('base64url')}`, 'cursor'],
    [`cursor=${farPastCursor}`, 'cursor'],
  ])('when %s, then 400 validation naming the field', async (query, field) => {
    const res = await get(`/api/v1/admin/audit?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; errors: Array<{ field: string }> };
    expect(body.type).toBe('/problems/validation');
    expect(body.errors[0]?.field).toBe(field);
  });
});

describe('the audit consumer', () => {
  it('when a message is malformed, then it is dropped and later events still arrive', async () => {
    const seq = (await h.events.js.publish(h.events.prefix + h.subject, 'not json {')).seq;
    await h.events.js.publish(h.events.prefix + h.subject, JSON.stringify({ id: randomUUID(), data: {} }));
    const correlationId = corr();
    await publish(h, auditEvent({ correlationId }));
    expect(await rowsOf(correlationId, 1)).toHaveLength(1);
    await eventually(() => consumedThrough(h.events, h.durable, seq));
  });

  it('when the insert fails, then the event is redelivered and stored once the database is back', async () => {
    await sql`ALTER TABLE authz_audit RENAME TO authz_audit_away`.execute(h.db);
    const correlationId = corr();
    try {
      const seq = await publish(h, auditEvent({ correlationId }));
      await eventually(async () => {
        const info = await h.events.jsm.consumers.info(h.events.stream, h.durable);
        return info.delivered.stream_seq >= seq && info.num_redelivered > 0 ? true : undefined;
      });
    } finally {
      await sql`ALTER TABLE authz_audit_away RENAME TO authz_audit`.execute(h.db);
    }
    expect(await rowsOf(correlationId, 1)).toHaveLength(1);
  });

  it('when its durable consumer is deleted, then it is recreated and consuming resumes without doubles', async () => {
    const correlationId = corr();
    await publish(h, auditEvent({ correlationId }));
    await rowsOf(correlationId, 1);
    await h.events.jsm.consumers.delete(h.events.stream, h.durable);

    const seq = await publish(h, auditEvent({ correlationId }));

    await eventually(() => consumedThrough(h.events, h.durable, seq));
    expect(await rowsOf(correlationId, 2)).toHaveLength(2);
  });
});

describe('health and description', () => {
  it(
    'when the database, NATS and the three consumers (audit rows, ' +
      'processing records, batches of them) run (and it is not draining), then ready',
    async () => {
      const res = await fetch(`${h.url}/health/ready`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { checks: object }).checks).toEqual({
        database: true,
        events: true,
        consumer: true,
        'processing-consumer': true,
        'processing-batch-consumer': true,
        accepting: true,
      });
    },
  );

  it(
    'when the OpenAPI document is read, then it describes the audit, ' +
      'dead-letter and register routes with their schemas',
    async () => {
      const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
        info: { title: string };
        paths: Record<string, unknown>;
        components: { schemas: Record<string, unknown> };
      };
      expect(doc.info.title).toBe('audit');
      expect(Object.keys(doc.paths)).toEqual([
        '/api/v1/admin/audit',
        '/api/v1/admin/dead-letters',
        '/api/v1/admin/dead-letters/{id}/replay',
        '/api/v1/admin/dead-letters/{id}',
        '/api/v1/verwerkingsactiviteiten',
        '/api/v1/me/verwerkingen',
      ]);
      expect(doc.components.schemas['AuthzAudit']).toBeDefined();
      expect(doc.components.schemas['Verwerkingsactiviteit']).toBeDefined();
      expect(doc.components.schemas['Verwerking']).toBeDefined();
      expect(doc.components.schemas['DeadLetter']).toBeDefined();
    },
  );
});
