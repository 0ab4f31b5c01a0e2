import { randomUUID } from 'node:crypto';
import { asUser, eventually, practitioner } from '@register/testkit';
import { auditEvent, consumedThrough, publish, startAuditSystem, type AuditSystem } from './support/system';

// The audit filters of the operations console (issue 22): decision, from (inclusive), to (exclusive), each alone
// and with action, correlationId and paging. This file's rows are in 2030; the system's consumer also stores the
// audit events other test files publish meanwhile, so each case checks every row it gets against the filter and
// exactly which of this file's rows come.
let h: AuditSystem;
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
  h = await startAuditSystem();
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
interface Row {
  at: string;
  action: string;
  decision: string;
  correlationId: string;
}

/** Every row the query answers, through all its pages. */
async function rows(query: string): Promise<Row[]> {
  const all: Row[] = [];
  let next: string | null = `/api/v1/admin/audit?${query}`;
  while (next) {
    const res = await fetch(`${h.url}${next}`, { headers: admin });
    expect(res.status).toBe(200);
    all.push(...((await res.json()) as Row[]));
    const link = res.headers.get('link');
    next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  }
  return all;
}
const mine = (found: Row[]) => found.filter((r) => r.correlationId === c1 || r.correlationId === c2).map((r) => r.at);

describe('GET /api/v1/admin/audit filters', () => {
  const t = (iso: string) => Date.parse(iso);
  it.each<[string, string[], (r: Row) => boolean]>([
    ['decision=deny', [at(3), at(1)], (r) => r.decision === 'deny'],
    ['decision=flagged', [at(2)], (r) => r.decision === 'flagged'],
    [`from=${at(1)}`, [at(3), at(2), at(1)], (r) => t(r.at) >= t(at(1))],
    [`to=${at(2)}`, [at(1), at(0)], (r) => t(r.at) < t(at(2))],
    [`from=${at(1)}&to=${at(3)}`, [at(2), at(1)], (r) => t(r.at) >= t(at(1)) && t(r.at) < t(at(3))],
    [`from=${at(2)}&to=${at(2)}`, [], () => false],
    [`from=${encodeURIComponent('2030-01-01T02:00:00+01:00')}`, [at(3), at(2), at(1)], (r) => t(r.at) >= t(at(1))],
    ['decision=deny&correlationId=C1', [at(1)], (r) => r.decision === 'deny' && r.correlationId === c1],
    ['decision=deny&action=flag:set', [at(3)], (r) => r.decision === 'deny' && r.action === 'flag:set'],
    [
      `decision=deny&from=${at(0)}&to=${at(3)}&correlationId=C1&action=reveal-registernummer`,
      [at(1)],
      (r) => r.correlationId === c1 && r.action === 'reveal-registernummer' && r.decision === 'deny',
    ],
  ])(
    // C1 stands for this run's correlation id, so a title is the same in every run (CI compares two runs by title).
    'when filtered by %s, then only matching rows come, newest first, and exactly these of this file',
    async (query, expected, matches) => {
      const found = await rows(query.replace('C1', c1));
      expect(found.filter((r) => !matches(r))).toEqual([]);
      expect(mine(found)).toEqual(expected);
      const times = found.map((r) => t(r.at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    },
  );

  it(
    'when filtered and paged, ' + 'then every page keeps the filters and together they hold the matching rows once',
    async () => {
      const seen: string[] = [];
      let next: string | null = `/api/v1/admin/audit?decision=deny&from=${at(0)}&limit=1`;
      while (next) {
        const res = await fetch(`${h.url}${next}`, { headers: admin });
        expect(res.status).toBe(200);
        seen.push(...((await res.json()) as Row[]).map((r) => r.at));
        const link = res.headers.get('link');
        next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
        if (next) expect(next).toContain('decision=deny');
      }
      // Only this file's rows are in 2030.
      expect(seen).toEqual([at(3), at(1)]);
    },
  );

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
