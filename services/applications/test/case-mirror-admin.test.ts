import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { asUser, eventually, practitioner, uniqueSubject } from '@register/testkit';
import { client, type Reply } from './support/client';
import { startMirrorSystem, submitIntake, type MirrorSystem } from './support/mirror-system';

// The operator's view of the case mirror (issue 22). The reconciler waits a minute here, so a divergence stays
// until the test retries it; the zaaksysteem refuses the initiator role while a fault is set.
let system: MirrorSystem;
beforeAll(async () => {
  system = await startMirrorSystem({ reconcileMs: 60_000 });
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

const admin = () => client(system.apps.url, practitioner('100000009', 'admin'));
const refuseInitiator = () =>
  system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'status', status: 503 });

interface Overview {
  counts: { owed: number; diverged: number; pastWindow: number; healedLast24h: number };
  cases: Array<Record<string, unknown> & { referentie: string }>;
}
const overview = async (query = '') => (await admin().get<Overview>(`/api/v1/admin/case-mirror${query}`)).body;
const caseOf = async (referentie: string) => (await overview()).cases.find((c) => c.referentie === referentie);

/** A submitted intake whose mirror diverged at the initiator role. */
async function divergedCase(): Promise<{ referentie: string; correlationId: string }> {
  refuseInitiator();
  const { referentie, correlationId } = await submitIntake(system, uniqueSubject(), 0);
  await eventually(async () => ((await caseOf(referentie))?.['state'] === 'diverged' ? true : undefined));
  return { referentie, correlationId };
}

async function retry(referentie: string, correlationId = `corr-retry-${randomUUID()}`) {
  const res = await fetch(`${system.apps.url}/api/v1/admin/case-mirror/${referentie}/retry`, {
    method: 'POST',
    headers: { ...asUser(practitioner('100000009', 'admin'), correlationId), 'content-type': 'application/json' },
    body: '{}',
  });
  return { status: res.status, body: await res.text(), correlationId };
}

const healedRows = (referentie: string) =>
  system.audits('zaaksysteem-hersteld').filter((e) => e.data.resource === `case/${referentie}`);

describe('GET /api/v1/admin/case-mirror', () => {
  it(
    'when cases diverged, then each is listed by referentie with its last step, ' +
      'attempts, error and times, and the counts say so',
    async () => {
      const before = (await overview()).counts;
      const first = await divergedCase();
      const second = await divergedCase();

      const body = await overview();

      expect(body.counts).toEqual({ ...before, diverged: before.diverged + 2 });
      for (const { referentie } of [first, second]) {
        const listed = body.cases.find((c) => c.referentie === referentie);
        expect(listed).toEqual({
          referentie,
          state: 'diverged',
          step: 'status:ingediend',
          attempts: 1,
          lastError: expect.stringMatching(/^rol:initiator: /),
          divergedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          nextAttemptAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          pastWindow: false,
        });
      }
      // No personal data: the owner's subject appears nowhere in the answer.
      expect(JSON.stringify(body)).not.toMatch(/9\d{8}/);
    },
  );

  it('when a limit is given, then the cases come a page at a time with Link rel="next" and no case twice', async () => {
    await divergedCase();
    const all = (await overview()).cases.map((c) => c.referentie);
    expect(all.length).toBeGreaterThanOrEqual(2);

    const seen: string[] = [];
    let next: string | null = '/api/v1/admin/case-mirror?limit=1';
    while (next) {
      const page: Reply<Overview> = await admin().get<Overview>(next);
      expect(page.status).toBe(200);
      expect(page.body.cases.length).toBeLessThanOrEqual(1);
      seen.push(...page.body.cases.map((c) => c.referentie));
      const link: string | null = page.headers.get('link');
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
    }
    expect(seen).toEqual(all);
  });

  it('when limit or cursor is malformed, then 400 names the parameter', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=abc', 'limit'],
      ['?cursor=not-ours', 'cursor'],
    ] as const) {
      const res = await admin().get<{ errors: Array<{ field: string }> }>(`/api/v1/admin/case-mirror${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e) => e.field)).toEqual([field]);
    }
  });
});

describe('POST /api/v1/admin/case-mirror/{referentie}/retry', () => {
  it(
    'when the zaaksysteem answers again, then a retry is 202, the case heals from ' +
      'its last step and the audit has a zaaksysteem-retry row with the caller’s ' +
      'correlation id',
    async () => {
      const { referentie } = await divergedCase();
      system.sim.faults.clear();
      const healsBefore = (await overview()).counts.healedLast24h;

      const res = await retry(referentie);

      expect(res.status).toBe(202);
      await eventually(async () => (healedRows(referentie).length === 1 ? true : undefined));
      expect(await caseOf(referentie)).toBeUndefined();
      expect((await overview()).counts.healedLast24h).toBe(healsBefore + 1);
      const retries = system.audits('zaaksysteem-retry').filter((e) => e.data.resource === `case/${referentie}`);
      expect(retries.map((e) => [e.data, e.correlationId])).toEqual([
        [
          { action: 'zaaksysteem-retry', resource: `case/${referentie}`, decision: 'allow', role: 'admin' },
          res.correlationId,
        ],
      ]);
      // From its last step: one zaak, one status, one initiator.
      const [zaak] = system.sim.state.zakenWithIdentificatie(referentie);
      expect([zaak?.statussen.length, zaak?.rollen.length]).toEqual([1, 1]);
      expect(system.sim.state.zakenWithIdentificatie(referentie)).toHaveLength(1);
    },
  );

  it(
    'when a case is past the reconciler’s window, then it is marked so, and a retry ' + 'still brings it back',
    async () => {
      const { referentie } = await divergedCase();
      // The 48 hours have passed: the divergence began two days and an hour ago.
      await sql`UPDATE case_mirrors SET diverged_at = diverged_at - interval '49 hours'
        WHERE referentie = ${referentie}`.execute(system.apps.db);
      const listed = await overview();
      expect(listed.cases.find((c) => c.referentie === referentie)?.['pastWindow']).toBe(true);
      expect(listed.counts.pastWindow).toBe(1);
      system.sim.faults.clear();

      const res = await retry(referentie);

      expect(res.status).toBe(202);
      await eventually(async () => (healedRows(referentie).length === 1 ? true : undefined));
      expect((await overview()).counts.pastWindow).toBe(0);
    },
  );

  it('when the case owes nothing, then 409; when it is unknown, then a bare 404', async () => {
    const { referentie } = await submitIntake(system, uniqueSubject(), 0);
    await eventually(async () =>
      system.sim.state.zakenWithIdentificatie(referentie)[0]?.rollen.length ? true : undefined,
    );
    await eventually(async () => ((await caseOf(referentie)) === undefined ? true : undefined));

    const done = await retry(referentie);
    const unknown = await retry('AV-1999-000000');

    expect(done.status).toBe(409);
    expect(JSON.parse(done.body)).toMatchObject({ type: '/problems/conflict', status: 409 });
    expect([unknown.status, unknown.body]).toEqual([404, '']);
  });
});
