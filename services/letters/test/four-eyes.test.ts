import {
  caseBrief,
  decideCase,
  portal,
  startNeighboursSystem,
  type Reply,
  type NeighboursSystem,
} from './support/neighbours-system';

// The four-eyes table of ADR 0010 through the gateway, as the portals meet it: every status of a case's
// letter × every kind of caller × every operation, on real Postgres and NATS. The expected answers are written
// out from ADR 0002 and 0010 here, not computed the way the service does. A refusal leaves the letter as
// it was; an allowed operation answers a fresh BriefView whose `decisions` are the caller's in the new status.
let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
}, 120_000);
afterAll(async () => system?.close(), 60_000);

const DRAFTER = '900000051';
const callers = {
  drafter: { headers: { 'X-Subject': DRAFTER, 'X-Role': 'drafter' }, id: DRAFTER },
  otherDrafter: { headers: { 'X-Subject': '900000052', 'X-Role': 'drafter' }, id: '900000052' },
  approver: { headers: { 'X-Subject': '900000053', 'X-Role': 'approver' }, id: '900000053' },
  /** The letter's own drafter, calling as an approver. */
  drafterAsApprover: { headers: { 'X-Subject': DRAFTER, 'X-Role': 'approver' }, id: DRAFTER },
  admin: { headers: { 'X-Subject': '900000054', 'X-Role': 'admin' }, id: '900000054' },
  caseHandler: { headers: { 'X-Medewerker': 'mw-four-eyes', 'X-Rollen': 'beoordelaar' }, id: 'mw-four-eyes' },
  nobody: { headers: {} as Record<string, string>, id: null },
};
type Kind = keyof typeof callers;
const KINDS = Object.keys(callers) as Kind[];

const STATUSES = ['concept', 'ter-goedkeuring', 'afgekeurd', 'goedgekeurd', 'verzonden'] as const;
type Status = (typeof STATUSES)[number];
const OPERATIONS = ['edit', 'submit', 'approve', 'reject', 'send', 'reset', 'reveal'] as const;
type Operation = (typeof OPERATIONS)[number];

/** Who drafted the letter in each status of the walk below: nobody until the first submit (a reset clears it). */
const drafterIn = (status: Status) => (status === 'concept' ? null : DRAFTER);

/**
 * ADR 0002 and 0010, written out: 401, then a missing capability or reviewing one's own letter 403, then the state
 * 409. A case's letter needs a letter capability or cases:admin first: a case handler has neither.
 */
function expected(op: Operation, kind: Kind, status: Status, drafterId: string | null): number {
  if (kind === 'nobody') return 401;
  if (kind === 'caseHandler') return 403;
  const drafts = kind === 'drafter' || kind === 'otherDrafter';
  const approves = kind === 'approver' || kind === 'drafterAsApprover';
  switch (op) {
    case 'edit':
    case 'submit':
      if (!drafts) return 403;
      return status === 'concept' || status === 'afgekeurd' ? 200 : 409;
    case 'approve':
    case 'reject':
      if (!approves || callers[kind].id === drafterId) return 403;
      return status === 'ter-goedkeuring' ? 200 : 409;
    case 'send':
      return status === 'goedgekeurd' ? 200 : 409;
    case 'reset':
      return 200;
    case 'reveal':
      return drafts ? 200 : 403;
  }
}

const NEXT: Record<Operation, (s: Status) => Status> = {
  edit: (s) => s,
  submit: () => 'ter-goedkeuring',
  approve: () => 'goedgekeurd',
  reject: () => 'afgekeurd',
  send: () => 'verzonden',
  reset: () => 'concept',
  reveal: (s) => s,
};

const decisionsFor = (kind: Kind, status: Status, drafterId: string | null) => ({
  canEdit: expected('edit', kind, status, drafterId) === 200,
  canApprove: expected('approve', kind, status, drafterId) === 200,
  canReject: expected('reject', kind, status, drafterId) === 200,
  canSend: expected('send', kind, status, drafterId) === 200,
  canRevealRegisterNummer: expected('reveal', kind, status, drafterId) === 200,
});

let referentie: string;
const q = () => `?referentie=${encodeURIComponent(referentie)}`;
const as = (kind: Kind) => portal(system, callers[kind].headers);
const read = () => as('drafter').get(`/api/v1/brief${q()}`);

async function call(op: Operation, kind: Kind): Promise<Reply> {
  const me = as(kind);
  switch (op) {
    case 'edit':
      return me.put(`/api/v1/brief${q()}`, { sections: (await read()).body.brief.sections });
    case 'reject':
      return me.post(`/api/v1/brief/reject${q()}`, { comments: 'Graag de reden concreter.' });
    case 'reveal':
      return me.post(`/api/v1/brief/reveal-registernummer${q()}`, undefined, { 'X-Step-Up': 'true' });
    default:
      return me.post(`/api/v1/brief/${op}${q()}`);
  }
}

/**
 * Brings the letter into `status` the way people do: start over, the drafter submits, an approver decides, it is sent.
 */
async function reach(status: Status): Promise<void> {
  const now = (await read()).body.brief;
  if (now.status.tag === status && now.drafterId === drafterIn(status)) return;
  const step = async (op: Operation, kind: Kind) => {
    const res = await call(op, kind);
    if (res.status !== 200)
      throw new Error(`${op} by ${kind} answered ${res.status} while reaching ${status}: ${res.text}`);
  };
  await step('reset', 'admin');
  if (status === 'concept') return;
  await step('submit', 'drafter');
  if (status === 'afgekeurd') await step('reject', 'approver');
  if (status === 'goedgekeurd' || status === 'verzonden') await step('approve', 'approver');
  if (status === 'verzonden') await step('send', 'drafter');
}

/** JSON with sorted keys: the stored content comes back from jsonb in another key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

const PROBLEM: Record<number, string> = {
  401: '/problems/unauthenticated',
  403: '/problems/forbidden',
  409: '/problems/conflict',
};

beforeAll(async () => {
  ({ referentie } = await decideCase(system, 'afwijzen', '900000002'));
  await caseBrief(system, referentie);
}, 60_000);

describe.each(STATUSES)('a case letter in status %s', (status) => {
  it(
    'when every kind of caller reads it, then its decisions are ' +
      'exactly what that caller may do now; a case handler may not read it',
    async () => {
      await reach(status);
      const readers = KINDS.filter((k) => k !== 'nobody' && k !== 'caseHandler');
      const seen = await Promise.all(
        readers.map(async (kind) => [kind, (await as(kind).get(`/api/v1/brief${q()}`)).body.decisions] as const),
      );
      expect(Object.fromEntries(seen)).toEqual(
        Object.fromEntries(readers.map((kind) => [kind, decisionsFor(kind, status, drafterIn(status))])),
      );
      const refused = await as('caseHandler').get(`/api/v1/brief${q()}`);
      expect([refused.status, refused.body.type]).toEqual([403, '/problems/forbidden']);
    },
  );

  it(
    'when every kind of caller tries every operation, ' +
      'then 401/403/409 leave it untouched and an allowed one answers the fresh view',
    async () => {
      const wrong: string[] = [];
      for (const kind of KINDS) {
        for (const op of OPERATIONS) {
          await reach(status);
          const beforeRead = await read();
          const before = beforeRead.text;
          const want = expected(op, kind, status, drafterIn(status));
          const res = await call(op, kind);
          const label = `${kind} ${op} in ${status}`;
          if (res.status !== want) {
            wrong.push(`${label}: ${res.status}, expected ${want} (${res.text.slice(0, 160)})`);
            continue;
          }
          if (want !== 200) {
            if (res.body?.type !== PROBLEM[want])
              wrong.push(`${label}: problem ${res.body?.type}, expected ${PROBLEM[want]}`);
            if ((await read()).text !== before) wrong.push(`${label}: the refused call changed the letter`);
            continue;
          }
          if (op === 'reveal') {
            if (!/^\d+$/.test(res.body?.registerNummer ?? ''))
              wrong.push(`${label}: no register number in ${res.text}`);
            continue;
          }
          const next = NEXT[op](status);
          const drafterId = op === 'submit' ? callers[kind].id : op === 'reset' ? null : drafterIn(status);
          const view = res.body;
          if (view?.brief?.status?.tag !== next)
            wrong.push(`${label}: status ${view?.brief?.status?.tag}, expected ${next}`);
          if (view?.brief?.drafterId !== drafterId)
            wrong.push(`${label}: drafterId ${view?.brief?.drafterId}, expected ${drafterId}`);
          if (JSON.stringify(view?.decisions) !== JSON.stringify(decisionsFor(kind, next, drafterId))) {
            wrong.push(
              `${label}: decisions ${JSON.stringify(view?.decisions)}, ` +
                `expected ${JSON.stringify(decisionsFor(kind, next, drafterId))}`,
            );
          }
          if (op === 'edit' && canonical(view?.brief?.sections) !== canonical(beforeRead.body.brief.sections))
            wrong.push(`${label}: saving the letter unchanged changed its sections`);
          if (canonical(view) !== canonical((await as(kind).get(`/api/v1/brief${q()}`)).body))
            wrong.push(`${label}: the answer is not the view the caller reads next`);
        }
      }
      expect(wrong).toEqual([]);
    },
    120_000,
  );
});

describe('the order of refusals (ADR 0002: 401, 403, 404, 400, 409)', () => {
  const unknown = '?referentie=AV-1999-000404';
  const invalid = { sections: [{ sectionKey: 'ps' }] };

  it('when nobody calls with an unknown referentie and an invalid body, then 401', async () => {
    expect((await as('nobody').put(`/api/v1/brief${unknown}`, invalid)).status).toBe(401);
  });

  it(
    'when a caller without the capability names an unknown ' + 'letter with an invalid body, then 403, not 404 or 400',
    async () => {
      for (const res of [
        await as('approver').put(`/api/v1/brief${unknown}`, invalid),
        await as('drafter').post(`/api/v1/brief/approve${unknown}`),
        await as('drafter').post(`/api/v1/brief/reject${unknown}`, { comments: 'x'.repeat(5000) }),
        await as('caseHandler').post(`/api/v1/brief/submit${unknown}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.type).toBe('/problems/forbidden');
      }
    },
  );

  it('when a drafter names an unknown letter with an invalid body, then a bare 404 before the 400', async () => {
    for (const res of [
      await as('drafter').put(`/api/v1/brief${unknown}`, invalid),
      await as('approver').post(`/api/v1/brief/reject${unknown}`, { comments: 'x'.repeat(5000) }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe('');
    }
  });

  it(
    "when the letter's own drafter rejects it as an approver " +
      'with an invalid body, then 403 (four eyes) before the 400',
    async () => {
      await reach('ter-goedkeuring');
      const res = await as('drafterAsApprover').post(`/api/v1/brief/reject${q()}`, { comments: 'x'.repeat(5000) });
      expect(res.status).toBe(403);
      expect(res.body.type).toBe('/problems/forbidden');
      expect((await read()).body.brief.status.tag).toBe('ter-goedkeuring');
    },
  );

  it(
    'when the status does not allow the operation and the body is invalid, ' +
      'then 400 naming the field before the 409',
    async () => {
      await reach('verzonden');
      const saved = await as('drafter').put(`/api/v1/brief${q()}`, invalid);
      expect(saved.status).toBe(400);
      expect(saved.body.errors.map((e: any) => e.field)).toContain('sections[0].sectionKey');
      const rejected = await as('approver').post(`/api/v1/brief/reject${q()}`, { comments: 'x'.repeat(5000) });
      expect(rejected.status).toBe(400);
      expect(rejected.body.errors.map((e: any) => e.field)).toEqual(['comments']);
      expect((await read()).body.brief.status.tag).toBe('verzonden');
    },
  );
});
