import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { reference } from '@register/contracts';
import { newEvent } from '@register/service-kit';
import { V1_VARIANTS, asUser, eventually, practitioner, v1Event } from '@register/testkit';
import { startReferenceSystem, type ReferenceSystem } from './support/system';

let h: ReferenceSystem;
beforeAll(async () => {
  h = await startReferenceSystem();
});
afterAll(async () => h.close());

const FLAG = 'herregistratie-aanvragen';
const admin = (correlationId = `flags-${randomUUID()}`) => asUser(practitioner('900000001', 'admin'), correlationId);
const put = (key: string, body: unknown, headers: Record<string, string> = admin()) =>
  fetch(`${h.url}/api/v1/admin/flags/${key}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const enabled = async (key: string) =>
  (
    (await (await fetch(`${h.url}/api/v1/flags`, { headers: admin() })).json()) as Array<{
      key: string;
      enabled: boolean;
    }>
  ).find((f) => f.key === key)?.enabled;

interface Heard {
  subject: string;
  envelope: { type: string; correlationId: string | null; data: Record<string, unknown> };
}

/**
 * Every event the service publishes from now on (a core subscription through its own bus, so on this run's subjects).
 */
async function listen(): Promise<{ heard: Heard[]; stop(): void }> {
  const heard: Heard[] = [];
  const subscription = h.events.subscribe('register.>', (m) =>
    heard.push({ subject: m.subject, envelope: JSON.parse(m.payload) as Heard['envelope'] }),
  );
  // The server knows the subscription before the request that publishes is sent.
  await h.events.nc.flush();
  return { heard, stop: () => subscription.unsubscribe() };
}

// Every test leaves the flag on, as the service ships it: no test depends on another's order.
afterEach(async () => {
  if ((await enabled(FLAG)) !== true) expect((await put(FLAG, { enabled: true })).status).toBe(204);
});

describe('PUT /api/v1/admin/flags/:key', () => {
  it('when a drafter sets a flag, then 403 and nothing changes', async () => {
    expect(await enabled(FLAG)).toBe(true);
    const res = await put(FLAG, { enabled: false }, asUser(practitioner('900000001', 'drafter')));
    expect(res.status).toBe(403);
    expect(await enabled(FLAG)).toBe(true);
  });

  it(
    'when an admin disables it, then 204, the flag reads back and ' +
      'an audit event and a flag-changed event carry its correlation id',
    async () => {
      const correlationId = `flags-${randomUUID()}`;
      const events = await listen();
      try {
        const res = await put(FLAG, { enabled: false }, admin(correlationId));
        expect(res.status).toBe(204);
        const flags = (await (await fetch(`${h.url}/api/v1/flags`, { headers: admin() })).json()) as Array<{
          key: string;
          enabled: boolean;
          description: string;
        }>;
        expect(flags.find((f) => f.key === FLAG)).toEqual({
          key: FLAG,
          description: expect.any(String),
          enabled: false,
        });

        const ours = await eventually(async () => {
          const mine = events.heard.filter((e) => e.envelope.correlationId === correlationId);
          return mine.length >= 2 ? mine : undefined;
        });
        expect(
          ours
            .map((e) => ({ subject: e.subject, type: e.envelope.type, data: e.envelope.data }))
            .sort((a, b) => a.subject.localeCompare(b.subject)),
        ).toEqual([
          {
            subject: 'register.audit.reference',
            type: 'audit',
            data: { action: 'flag:set', resource: `flag/${FLAG}`, decision: 'allow', role: 'admin' },
          },
          { subject: 'register.reference.flag-changed', type: 'flag-changed', data: { key: FLAG, enabled: false } },
        ]);
      } finally {
        events.stop();
      }
    },
  );

  it('when the key is unknown, then a bare 404 even with an invalid body, and nothing is published', async () => {
    const correlationId = `flags-${randomUUID()}`;
    const events = await listen();
    try {
      const res = await put('bestaat-niet', { enabled: 'nee' }, admin(correlationId));
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
      // A later event of this service passing the subscription shows that nothing of the 404 was waiting.
      const later = `flags-${randomUUID()}`;
      expect((await put(FLAG, { enabled: true }, admin(later))).status).toBe(204);
      await eventually(async () =>
        events.heard.filter((e) => e.envelope.correlationId === later).length >= 2 ? true : undefined,
      );
      expect(events.heard.filter((e) => e.envelope.correlationId === correlationId)).toEqual([]);
    } finally {
      events.stop();
    }
  });

  it('when the body is invalid, then 400 with errors and the flag is unchanged', async () => {
    const res = await put(FLAG, { enabled: 'ja' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ field: string }> };
    expect(body.errors[0]?.field).toBe('enabled');
    expect(await enabled(FLAG)).toBe(true);
  });
});

/**
 * Until no event of the service's own can reload its snapshot any more: every flag-changed event it wrote is
 * published (the relay deletes the outbox row), has reached this connection's subscriptions (the snapshot job's among
 * them; a flush returns after the server's earlier messages), and a reload started after theirs has finished (a load
 * that started earlier and ends later is dropped, reference-snapshot.ts).
 */
async function ownEventsHandled(): Promise<void> {
  await eventually(async () => {
    const { pending } = await sql<{ pending: string }>`SELECT count(*) AS pending FROM outbox`
      .execute(h.context.db)
      .then((r) => r.rows[0]!);
    return Number(pending) === 0 ? true : undefined;
  });
  await h.events.nc.flush();
  await h.context.snapshot.reload();
}

describe('the snapshot and the v1.0.0 flag-changed event (ADR 0228)', () => {
  // Another replica changed the flag: the database says off, this replica's snapshot still on, until an event
  // (the minute's reload is far off) makes it read the flags again.
  it.each(V1_VARIANTS)(
    'when the v1.0.0 sample of flag-changed arrives %s, then the snapshot reads the flags again',
    async (variant) => {
      const flagChanged = reference.events.flagChanged;
      const { data, envelope } = v1Event(flagChanged.subject, variant);
      expect(data).toMatchObject({ key: FLAG, enabled: false });
      // The test before set the flag back on through the API: its own event, still on its way, would read the
      // update below before the sample does.
      await ownEventsHandled();
      await sql`UPDATE feature_flag SET enabled = false WHERE key = ${FLAG}`.execute(h.context.db);
      expect(await enabled(FLAG)).toBe(true);
      const event = { ...newEvent(flagChanged.type, data, `v1-${randomUUID()}`), ...envelope };
      await h.events.publish(flagChanged.subject, JSON.stringify(event), event.id);
      await eventually(async () => ((await enabled(FLAG)) === false ? true : undefined));
    },
  );
});

describe('GET /api/v1/flags paged (ADR 0014)', () => {
  const list = (query: string) => fetch(`${h.url}/api/v1/flags${query}`, { headers: admin() });
  // Two more flags of this file's own database, so there is more than one page; removed again afterwards.
  beforeAll(async () => {
    await sql`INSERT INTO feature_flag (key, description, enabled) VALUES ('t-paging-a', 'test', true), ('t-paging-b',
      'test', false)`.execute(h.context.db);
    await h.context.snapshot.reload();
  });
  afterAll(async () => {
    await sql`DELETE FROM feature_flag WHERE key LIKE 't-paging-%'`.execute(h.context.db);
    await h.context.snapshot.reload();
  });

  it(
    'when limit and cursor are used, ' + 'then the flags come a page at a time with Link rel="next", each once',
    async () => {
      const all = (await (await list('')).json()) as Array<{ key: string }>;
      const paged: Array<{ key: string }> = [];
      let next: string | null = '?limit=1';
      let pages = 0;
      while (next !== null) {
        const res: Response = await list(next);
        expect(res.status).toBe(200);
        const page = (await res.json()) as Array<{ key: string }>;
        expect(page.length).toBeLessThanOrEqual(1);
        paged.push(...page);
        pages += 1;
        const link = res.headers.get('link');
        next = link ? (/^<\/api\/v1\/flags(\?[^>]+)>; rel="next"$/.exec(link)?.[1] ?? 'malformed Link') : null;
      }
      expect(all.length).toBe(3);
      expect(paged).toEqual(all);
      expect(pages).toBe(all.length);
    },
  );

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=x', 'limit'],
    ['cursor=garbage', 'cursor'],
  ])('when %s, then 400 naming %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([field]);
  });
});

describe('requests without the gateway signature', () => {
  it('when the internal identity is missing or forged, then 401', async () => {
    expect((await fetch(`${h.url}/api/v1/flags`)).status).toBe(401);
    expect((await fetch(`${h.url}/api/v1/flags`, { headers: { 'x-internal-identity': 'abc.def' } })).status).toBe(401);
    expect((await fetch(`${h.url}/api/v1/flags`, { headers: { 'x-subject': '900000001' } })).status).toBe(401);
  });

  it('when a user identity calls an internal route, then 403', async () => {
    expect((await fetch(`${h.url}/internal/flags`, { headers: admin() })).status).toBe(403);
  });
});

describe('GET /api/v1/flags served from memory (issue 11)', () => {
  it('when a flag changes, then the list has a new ETag at once and the old one no longer gives 304', async () => {
    const before = await fetch(`${h.url}/api/v1/flags`, { headers: admin() });
    const etag = before.headers.get('etag')!;
    expect((await fetch(`${h.url}/api/v1/flags`, { headers: { ...admin(), 'if-none-match': etag } })).status).toBe(304);

    expect((await put(FLAG, { enabled: false })).status).toBe(204);

    const after = await fetch(`${h.url}/api/v1/flags`, { headers: { ...admin(), 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.headers.get('cache-control')).toBe('no-store');
    expect(
      ((await after.json()) as Array<{ key: string; enabled: boolean }>).find((f) => f.key === FLAG)?.enabled,
    ).toBe(false);
  });
});
