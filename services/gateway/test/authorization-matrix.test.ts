import { randomUUID } from 'node:crypto';
import { ROUTES } from '@register/contracts';
import { startSystem, users, type TestSystem } from './support/system';

/**
 * The authorization oracle, written by hand from ADR 0002 (not computed by the code that enforces it):
 * every route of the table × every kind of caller → 401, 403 or allowed. "allowed" is the route's documented
 * success status, or a domain answer only its handler gives (a bare 404 for an unknown resource), so a wrong
 * capability in the route table, in the gateway or in the service's own guard fails here.
 *
 * Capabilities by hand (ADR 0002): drafter = own, brief:edit, reveal; approver = own, brief:approve;
 * admin = own, orgtemplate:edit, stamdata:read, flags:write, cases:admin, audit:read, uploads:admin-delete;
 * beoordelaar (case handler) = CanBeoordelen, stamdata:read; medewerker (a case handler without roles) =
 * an identity and nothing else; adminSeam = a drafter with X-Admin: true (adds uploads:admin-delete).
 * Without an identity every route is 401. The notification webhook is the one route no identity opens: only its
 * shared secret does (ADR 0001, 0011), so for every caller without it the answer is 401.
 */
const NOTIFICATIES_AUTH = 'Token matrix-notificaties';
let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem({ env: { applications: { NOTIFICATIES_AUTH } } });
}, 120_000);
afterAll(async () => sys?.close(), 60_000);

const KINDS = ['drafter', 'approver', 'admin', 'beoordelaar', 'medewerker', 'adminSeam'] as const;
type Kind = (typeof KINDS)[number];

interface Probe {
  /** The path with its parameters filled in (default: the route's path). */
  path?: string;
  body?: unknown;
  /** A multipart upload instead of a JSON body. */
  upload?: boolean;
  /** What an allowed caller gets. */
  allowed: number[];
  /** Sent only by the route's own shared-secret test, never by the callers of the grid. */
  secret?: string;
}

const unknownId = '00000000-0000-4000-8000-00000000beef';
const unknownReferentie = '?referentie=AV-1999-000000';
const ok = { allowed: [200] };
const gone = (path: string): Probe => ({ path, allowed: [404] });

// The columns of '+ -', in order: drafter approver admin beoordelaar medewerker adminSeam.
const MATRIX: Array<[string, string, Probe]> = [
  ['GET /api/v1/me', '+ + + + + +', ok],
  ['GET /api/v1/flags', '+ + + + + +', ok],
  ['PUT /api/v1/admin/flags/:key', '- - + - - -', gone('/api/v1/admin/flags/matrix-probe')],
  ['GET /api/v1/stamdata', '- - + + - -', ok],
  ['GET /api/v1/stamdata/:table', '- - + + - -', { path: '/api/v1/stamdata/beroepen', allowed: [200] }],
  ['GET /api/v1/admin/audit', '- - + - - -', ok],
  ['GET /api/v1/admin/dead-letters', '- - + - - -', ok],
  ['POST /api/v1/admin/dead-letters/:id/replay', '- - + - - -', gone('/api/v1/admin/dead-letters/999999999/replay')],
  ['DELETE /api/v1/admin/dead-letters/:id', '- - + - - -', gone('/api/v1/admin/dead-letters/999999999')],
  ['GET /api/v1/verwerkingsactiviteiten', '+ + + + + +', ok],
  ['GET /api/v1/me/verwerkingen', '+ + - - - +', ok],
  ['GET /api/v1/admin/system', '- - + - - -', ok],
  [
    'GET /api/v1/uploads/categories',
    '+ + + - - +',
    { path: '/api/v1/uploads/categories?wizardId=intake', allowed: [200] },
  ],
  ['POST /api/v1/uploads', '+ + + - - +', { upload: true, allowed: [201] }],
  [
    'GET /api/v1/uploads/status',
    '+ + + - - +',
    { path: '/api/v1/uploads/status?localIds=matrix-probe', allowed: [200] },
  ],
  ['GET /api/v1/uploads/:documentId/content', '+ + + + - +', gone(`/api/v1/uploads/${unknownId}/content`)],
  ['DELETE /api/v1/uploads/:documentId', '+ + + - - +', gone(`/api/v1/uploads/${unknownId}`)],
  ['DELETE /api/v1/admin/uploads/:documentId', '- - + - - +', gone(`/api/v1/admin/uploads/${unknownId}`)],
  ['GET /api/v1/dashboard-view', '+ + + - - +', ok],
  ['GET /api/v1/notes', '+ + + - - +', ok],
  ['GET /api/v1/population/address', '+ + + - - +', ok],
  ['GET /api/v1/education/diplomas', '+ + + - - +', ok],
  ['GET /api/v1/intake/policy', '+ + + - - +', ok],
  ['POST /api/v1/change-requests', '+ + + - - +', { body: { telefoon: '0612345678' }, allowed: [200] }],
  ['GET /api/v1/applications', '+ + + - - +', ok],
  // 409: the caller already has an intake in Concept (one kind may run twice when a test is retried).
  ['POST /api/v1/applications', '+ + + - - +', { body: { type: 'intake' }, allowed: [201, 409] }],
  ['GET /api/v1/applications/:id', '+ + + - - +', gone(`/api/v1/applications/${unknownId}`)],
  [
    'PUT /api/v1/applications/:id',
    '+ + + - - +',
    { path: `/api/v1/applications/${unknownId}`, body: {}, allowed: [404] },
  ],
  ['DELETE /api/v1/applications/:id', '+ + + - - +', gone(`/api/v1/applications/${unknownId}`)],
  [
    'POST /api/v1/applications/:id/submit',
    '+ + + - - +',
    { path: `/api/v1/applications/${unknownId}/submit`, body: {}, allowed: [404] },
  ],
  ['GET /api/v1/werkvoorraad', '- - - + - -', ok],
  ['GET /api/v1/beoordeling/:id', '- - - + - -', gone(`/api/v1/beoordeling/${unknownId}`)],
  [
    'POST /api/v1/beoordeling/:id/besluit',
    '- - - + - -',
    { path: `/api/v1/beoordeling/${unknownId}/besluit`, body: {}, allowed: [404] },
  ],
  ['GET /api/v1/admin/cases', '- - + - - -', ok],
  ['DELETE /api/v1/admin/cases/:id', '- - + - - -', gone(`/api/v1/admin/cases/${unknownId}`)],
  ['GET /api/v1/admin/case-mirror', '- - + - - -', ok],
  [
    'POST /api/v1/admin/case-mirror/:referentie/retry',
    '- - + - - -',
    gone('/api/v1/admin/case-mirror/AV-1999-000000/retry'),
  ],
  ['GET /api/v1/brief', '+ + + + + +', ok],
  ['PUT /api/v1/brief', '+ - - - - +', { path: `/api/v1/brief${unknownReferentie}`, body: {}, allowed: [404] }],
  ['POST /api/v1/brief/submit', '+ - - - - +', gone(`/api/v1/brief/submit${unknownReferentie}`)],
  ['POST /api/v1/brief/approve', '- + - - - -', gone(`/api/v1/brief/approve${unknownReferentie}`)],
  ['POST /api/v1/brief/reject', '- + - - - -', gone(`/api/v1/brief/reject${unknownReferentie}`)],
  // A case's brief (?referentie=) is staff data: a letter capability or cases:admin as well (ADR 0010).
  ['POST /api/v1/brief/send', '+ + + - - +', gone(`/api/v1/brief/send${unknownReferentie}`)],
  ['POST /api/v1/brief/reset', '+ + + - - +', gone(`/api/v1/brief/reset${unknownReferentie}`)],
  ['POST /api/v1/brief/reveal-registernummer', '+ - - - - +', ok],
  ['GET /api/v1/brief/preview', '+ + - - - +', ok],
  ['GET /api/v1/brief/pdf', '+ + - - - +', gone(`/api/v1/brief/pdf${unknownReferentie}`)],
  ['GET /api/v1/admin/org-templates', '- - + - - -', ok],
  [
    'GET /api/v1/admin/org-template/:subOrgId',
    '- - + - - -',
    { path: '/api/v1/admin/org-template/register', allowed: [200] },
  ],
  [
    'PUT /api/v1/admin/org-template/:subOrgId',
    '- - + - - -',
    { path: '/api/v1/admin/org-template/matrix-probe', body: {}, allowed: [404] },
  ],
  [
    'POST /api/v1/admin/org-template/:subOrgId/publish',
    '- - + - - -',
    gone('/api/v1/admin/org-template/matrix-probe/publish'),
  ],
  [
    'POST /api/v1/admin/org-template/:subOrgId/rollback/:version',
    '- - + - - -',
    gone('/api/v1/admin/org-template/matrix-probe/rollback/1'),
  ],
  [
    'POST /api/v1/admin/org-template/:subOrgId/test-letter',
    '- - + - - -',
    gone('/api/v1/admin/org-template/matrix-probe/test-letter'),
  ],
  [
    'POST /api/v1/notificaties',
    '401 401 401 401 401 401',
    { body: notification(), allowed: [204], secret: NOTIFICATIES_AUTH },
  ],
];

/**
 * Every route scoped to a case (`?referentie=`), probed with a case: the route's own requirement and a letter
 * capability or cases:admin (ADR 0010). Unknown case: the allowed callers get the bare 404.
 */
// The columns of '+ -', in order: drafter approver admin beoordelaar medewerker adminSeam.
const CASE_SCOPED: Array<[string, string, Probe]> = [
  ['GET /api/v1/brief', '+ + + - - +', gone(`/api/v1/brief${unknownReferentie}`)],
  ['PUT /api/v1/brief', '+ - - - - +', { path: `/api/v1/brief${unknownReferentie}`, body: {}, allowed: [404] }],
  ['POST /api/v1/brief/submit', '+ - - - - +', gone(`/api/v1/brief/submit${unknownReferentie}`)],
  ['POST /api/v1/brief/approve', '- + - - - -', gone(`/api/v1/brief/approve${unknownReferentie}`)],
  ['POST /api/v1/brief/reject', '- + - - - -', gone(`/api/v1/brief/reject${unknownReferentie}`)],
  ['POST /api/v1/brief/send', '+ + + - - +', gone(`/api/v1/brief/send${unknownReferentie}`)],
  ['POST /api/v1/brief/reset', '+ + + - - +', gone(`/api/v1/brief/reset${unknownReferentie}`)],
  [
    'POST /api/v1/brief/reveal-registernummer',
    '+ - - - - +',
    gone(`/api/v1/brief/reveal-registernummer${unknownReferentie}`),
  ],
  ['GET /api/v1/brief/preview', '+ + - - - +', gone(`/api/v1/brief/preview${unknownReferentie}`)],
  ['GET /api/v1/brief/pdf', '+ + - - - +', gone(`/api/v1/brief/pdf${unknownReferentie}`)],
];

function expectedFor(grid: string, kind: Kind): 'allowed' | 401 | 403 {
  const cells = grid.split(' ');
  if (cells.length !== KINDS.length) throw new Error(`grid "${grid}" needs ${KINDS.length} cells`);
  const cell = cells[KINDS.indexOf(kind)];
  return cell === '+' ? 'allowed' : cell === '401' ? 401 : 403;
}

/** A ZGW notification as Open Notificaties sends it (its subscription check, kanaal `test`). */
function notification() {
  return {
    kanaal: 'test',
    hoofdObject: 'http://zgw.example/zaken/api/v1/zaken/1',
    resource: 'zaak',
    resourceUrl: 'http://zgw.example/zaken/api/v1/zaken/1',
    actie: 'create',
    aanmaakdatum: '2026-11-22T09:30:00.000Z',
    kenmerken: {},
  };
}

function pdfForm(): FormData {
  const form = new FormData();
  form.set('wizardId', 'intake');
  form.set('categoryId', 'overig');
  form.set('file', new Blob([Buffer.from('%PDF-1.4\n' + 'x'.repeat(500))], { type: 'application/pdf' }), 'bewijs.pdf');
  return form;
}

async function call(route: string, probe: Probe, headers: Record<string, string>): Promise<Response> {
  const [method, path] = route.split(' ') as [string, string];
  // X-Step-Up: the reveal's second check (ADR 0010) is the letters service's, not the route table's.
  const base = { ...headers, 'X-Step-Up': 'true', 'X-Correlation-Id': `matrix-${randomUUID()}` };
  const init: RequestInit =
    method === 'GET'
      ? { method, headers: base }
      : probe.upload
        ? { method, headers: base, body: pdfForm() }
        : { method, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(probe.body ?? {}) };
  return fetch(`${sys.gateway}${probe.path ?? path}`, init);
}

const grid = (table: Array<[string, string, Probe]>) =>
  table.flatMap(([route, cells, probe]) =>
    KINDS.map((kind) => [route, kind, expectedFor(cells, kind), probe] as const),
  );
const cases = grid(MATRIX);

async function expectOutcome(res: Response, want: 'allowed' | 401 | 403, probe: Probe): Promise<void> {
  const text = await res.text();
  if (want === 403 || want === 401) {
    expect([res.status, res.headers.get('content-type')]).toEqual([
      want,
      expect.stringContaining('application/problem+json'),
    ]);
    expect((JSON.parse(text) as { type: string }).type).toBe(
      want === 403 ? '/problems/forbidden' : '/problems/unauthenticated',
    );
  } else {
    // The documented success, or the handler's own answer about the probed resource.
    expect(probe.allowed.includes(res.status) ? 'allowed' : `${res.status} ${text.slice(0, 300)}`).toBe('allowed');
    if (res.status === 404) expect(text).toBe('');
  }
}

describe('authorization matrix (ADR 0002, by hand)', () => {
  it(
    'when the route table changes, then this table must say ' +
      'who may call each route: it names every route exactly once',
    () => {
      expect(MATRIX.map(([route]) => route).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    },
  );

  it.each(MATRIX.map(([route, , probe]) => [route, probe] as const))(
    '%s without an identity: 401 unauthenticated',
    async (route, probe) => {
      const res = await call(route, probe, {});
      expect(res.status).toBe(401);
      expect(((await res.json()) as { type: string }).type).toBe('/problems/unauthenticated');
    },
  );

  it.each(cases)('%s as %s: %s', async (route, kind, want, probe) => {
    await expectOutcome(await call(route, probe, users[kind]), want, probe);
  });

  it(
    'when a route is scoped to a case, then the case table says ' +
      'who may call it with one: it names every such route once',
    () => {
      expect(CASE_SCOPED.map(([route]) => route).sort()).toEqual(
        ROUTES.filter((r) => r.scoped)
          .map((r) => `${r.method} ${r.path}`)
          .sort(),
      );
    },
  );

  it.each(grid(CASE_SCOPED))('%s?referentie= as %s: %s', async (route, kind, want, probe) => {
    await expectOutcome(await call(route, probe, users[kind]), want, probe);
  });

  it.each(MATRIX.filter(([, , probe]) => probe.secret !== undefined))(
    '%s with its shared secret and no identity: allowed',
    async (route, _grid, probe) => {
      const res = await call(route, probe, { Authorization: probe.secret! });
      expect(probe.allowed).toContain(res.status);
    },
  );

  it(
    'when a case handler opens or decides their own application (ADR 0008), ' +
      'then 403; another case handler may open it',
    async () => {
      const owner = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const asOwner = { 'X-Subject': owner, 'content-type': 'application/json' };
      const app = await fetch(`${sys.gateway}/api/v1/applications`, {
        method: 'POST',
        headers: asOwner,
        body: JSON.stringify({ type: 'intake' }),
      });
      expect(app.status).toBe(201);
      const { id } = (await app.json()) as { id: string };
      const submitted = await fetch(`${sys.gateway}/api/v1/applications/${id}/submit`, {
        method: 'POST',
        headers: asOwner,
        body: JSON.stringify({
          diplomaHerkomst: 'handmatig',
          uren: 3000,
          documents: [{ categoryId: 'diploma', channel: 'post' }],
        }),
      });
      expect(submitted.status).toBe(200);
      const both = { 'X-Subject': owner, 'X-Medewerker': 'mw-own', 'X-Rollen': 'beoordelaar' };
      await expectOutcome(await call('GET /api/v1/beoordeling/:id', gone(`/api/v1/beoordeling/${id}`), both), 403, ok);
      await expectOutcome(
        await call(
          'POST /api/v1/beoordeling/:id/besluit',
          { path: `/api/v1/beoordeling/${id}/besluit`, body: { besluit: 'toekennen' }, allowed: [200] },
          both,
        ),
        403,
        ok,
      );
      await expectOutcome(
        await call('GET /api/v1/beoordeling/:id', gone(`/api/v1/beoordeling/${id}`), users.beoordelaar),
        'allowed',
        ok,
      );
    },
  );

  it(
    'when a route is not in the table, then a bare 404 (deny by default), ' + 'also for /api/v1 paths of a service',
    async () => {
      for (const path of ['/api/v1/nope', '/api/v1/brief/nope', '/api/v1/applications/x/y/z', '/elsewhere']) {
        const res = await fetch(`${sys.gateway}${path}`, { headers: users.admin });
        expect(res.status).toBe(404);
        expect(await res.text()).toBe('');
      }
    },
  );
});
