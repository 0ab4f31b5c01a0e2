import { randomUUID } from 'node:crypto';
import { asUser, eventually, practitioner } from '@register/testkit';
import { auditEvent, consumedThrough, publish, startAudit, type Harness } from './support/harness';

// The audit filters of the operations console (issue 22): decision, from (inclusive), to (exclusive), each alone
// and with action, correlationId and paging. The harness has a database of its own: these are its only rows.
let h: Harness;
const c1 = `corr-filter-${randomUUID()}`;
const c2 = `corr-filter-${randomUUID()}`;
const at = (hour: number) => `2030-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
const ROWS = [
  { correlationId: c1, action: 'flag:set', decision: 'allow', at: at(0) },
  { correlationId: c1, action: 'reveal-registernummer', decision: 'deny', at: at(1) },
  { correlationId: c2, action: 'zaaksysteem-divergentie', decision: 'flagged', at: at(2) },
  { correlationId: c2, action: 'flag:set', decision: 'deny', at: at(3) },
] as const;

beforeAll(async () => {
  h = await startAudit();
  let last = 0;
  for (const r of ROWS)
    last = await publish(
      h,
      auditEvent({
        correlationId: r.correlationId,
        action: r.action,
        decision: r.decision,
        occurredAt: new Date(r.at),
      }),
    );
  await eventually(() => consumedThrough(h.events, h.durable, last));
});
afterAll(async () => h.close());

const admin = asUser(practitioner('900000003', 'admin'));
async function rows(query: string): Promise<string[]> {
  const res = await fetch(`${h.url}/api/v1/admin/audit?${query}`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ at: string }>).map((r) => r.at);
}

describe('GET /api/v1/admin/audit filters', () => {
  it.each([
    ['decision=deny', [at(3), at(1)]],
    ['decision=flagged', [at(2)]],
    [`from=${at(1)}`, [at(3), at(2), at(1)]],
    [`to=${at(2)}`, [at(1), at(0)]],
    [`from=${at(1)}&to=${at(3)}`, [at(2), at(1)]],
    [`from=${at(2)}&to=${at(2)}`, []],
    [`from=${encodeURIComponent('2030-01-01T02:00:00+01:00')}`, [at(3), at(2), at(1)]],
    [`decision=deny&correlationId=${c1}`, [at(1)]],
    [`decision=deny&action=flag:set`, [at(3)]],
    [`decision=deny&from=${at(0)}&to=${at(3)}&correlationId=${c1}&action=reveal-registernummer`, [at(1)]],
  ])('when filtered by %s, then exactly the matching rows come, newest first', async (query, expected) => {
    expect(await rows(query)).toEqual(expected);
  });

  it('when filtered and paged, then every page keeps the filters and together they hold the matching rows once', async () => {
    const seen: string[] = [];
    let next: string | null = `/api/v1/admin/audit?decision=deny&from=${at(0)}&limit=1`;
    while (next) {
      const res = await fetch(`${h.url}${next}`, { headers: admin });
      expect(res.status).toBe(200);
      seen.push(...((await res.json()) as Array<{ at: string }>).map((r) => r.at));
      const link = res.headers.get('link');
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      if (next) expect(next).toContain('decision=deny');
    }
    expect(seen).toEqual([at(3), at(1)]);
  });

  it.each([
    ['decision=maybe', 'decision'],
    ['decision=', 'decision'],
    ['from=yesterday', 'from'],
    ['from=2030-01-01', 'from'],
    ['to=2030-13-01T00:00:00.000Z', 'to'],
    ['from=0000-01-01T00:00:00.000Z', 'from'],
    [`from=${at(3)}&to=${at(1)}`, 'to'],
    ['limit=0&decision=deny', 'limit'],
  ])('when %s, then 400 names the parameter %s', async (query, field) => {
    const res = await fetch(`${h.url}/api/v1/admin/audit?${query}`, { headers: admin });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; errors: Array<{ field: string }> };
    expect(body.type).toBe('/problems/validation');
    expect(body.errors.map((e) => e.field)).toEqual([field]);
  });
});
