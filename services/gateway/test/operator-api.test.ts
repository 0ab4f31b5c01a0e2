import { randomUUID } from 'node:crypto';
import { startSystem, users, type TestSystem, type UserKind } from './support/system';

// The operator API through the gateway (issue 22), on the whole system with mirroring off: the system status,
// the case mirror's empty overview, every non-admin caller refused and audited, and the console's static files.
let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem();
}, 120_000);
afterAll(async () => sys?.close(), 60_000);

const get = (path: string, headers: Record<string, string> = users.admin) =>
  fetch(`${sys.gateway}${path}`, { headers });

describe('GET /api/v1/admin/system', () => {
  it(
    'when everything runs, then every service is ready, ' +
      'each dependency is named with its state, every breaker is closed',
    async () => {
      const res = await get('/api/v1/admin/system');
      const body = (await res.json()) as {
        services: Array<{ name: string; ready: boolean; checks: Record<string, boolean> }>;
        dependencies: Array<{ name: string; status: string }>;
        breakers: Array<{ upstream: string; state: string }>;
        caseMirror: unknown;
        consumers: Array<{ name: string; pending: number }>;
      };

      expect(res.status).toBe(200);
      expect(body.services.map((s) => [s.name, s.ready])).toEqual([
        ['gateway', true],
        ['applications', true],
        ['documents', true],
        ['letters', true],
        ['reference', true],
        ['audit', true],
      ]);
      expect(body.services.find((s) => s.name === 'audit')?.checks).toMatchObject({
        database: true,
        events: true,
        consumer: true,
      });
      expect(body.dependencies).toEqual([
        { name: 'postgresql', status: 'ok' },
        { name: 'nats', status: 'ok' },
        { name: 's3', status: 'ok' },
        { name: 'zaaksysteem', status: 'not-configured' },
        { name: 'identity-provider', status: 'not-configured' },
      ]);
      expect(body.breakers).toEqual(
        ['applications', 'documents', 'letters', 'reference', 'audit'].map((upstream) => ({
          upstream,
          state: 'closed',
        })),
      );
      expect(body.caseMirror).toEqual({ enabled: false, backlog: 0, diverged: 0, pastWindow: 0 });
      const own = body.consumers.filter((c) => c.name.startsWith('audit_sys_'));
      expect(own.length).toBeGreaterThanOrEqual(1);
      for (const c of body.consumers) expect(Number.isInteger(c.pending) && c.pending >= 0).toBe(true);
    },
  );

  it('when a service is stopped, then it is not ready and the dependency view still answers', async () => {
    sys.pause('letters');
    try {
      const body = (await (await get('/api/v1/admin/system')).json()) as {
        services: Array<{ name: string; ready: boolean }>;
      };
      expect(body.services.find((s) => s.name === 'letters')?.ready).toBe(false);
      expect(body.services.find((s) => s.name === 'reference')?.ready).toBe(true);
    } finally {
      sys.resume('letters');
    }
  });
});

describe('GET /api/v1/admin/case-mirror with mirroring off', () => {
  it(
    'when mirroring is off, then the counts are 0 and no case is listed; ' + 'a retry of an unknown case is a bare 404',
    async () => {
      const res = await get('/api/v1/admin/case-mirror');
      expect([res.status, await res.json()]).toEqual([
        200,
        { counts: { owed: 0, diverged: 0, pastWindow: 0, healedLast24h: 0 }, cases: [] },
      ]);
      const retry = await fetch(`${sys.gateway}/api/v1/admin/case-mirror/AV-1999-000000/retry`, {
        method: 'POST',
        headers: users.admin,
      });
      expect([retry.status, await retry.text()]).toEqual([404, '']);
    },
  );
});

const OPERATOR_ROUTES = [
  ['GET', '/api/v1/admin/case-mirror', 'case-mirror:read'],
  ['POST', '/api/v1/admin/case-mirror/AV-1999-000000/retry', 'zaaksysteem-retry'],
  ['GET', '/api/v1/admin/dead-letters', 'dead-letter:list'],
  ['POST', '/api/v1/admin/dead-letters/1/replay', 'dead-letter:replay'],
  ['DELETE', '/api/v1/admin/dead-letters/1', 'dead-letter:discard'],
  ['GET', '/api/v1/admin/system', 'system:read'],
] as const;
const NON_ADMINS: Array<[UserKind, string]> = [
  ['drafter', 'drafter'],
  ['approver', 'approver'],
  ['beoordelaar', 'beoordelaar'],
  ['medewerker', 'behandelaar'],
  ['adminSeam', 'drafter'],
];

describe('operator routes refuse every caller without the admin role', () => {
  it(
    'when a non-admin calls an operator route, then 403 forbidden, ' +
      'and each denial is one audit row without personal data',
    async () => {
      const denials: Array<{ correlationId: string; action: string; role: string; path: string }> = [];
      for (const [method, path, action] of OPERATOR_ROUTES)
        for (const [kind, role] of NON_ADMINS) {
          const correlationId = `op-deny-${randomUUID()}`;
          const res = await fetch(`${sys.gateway}${path}`, {
            method,
            headers: { ...users[kind], 'X-Correlation-Id': correlationId },
          });
          expect([kind, path, res.status]).toEqual([kind, path, 403]);
          expect(((await res.json()) as { type: string }).type).toBe('/problems/forbidden');
          denials.push({ correlationId, action, role, path });
        }

      await sys.auditSettled(['gateway']);

      for (const d of denials) {
        const rows = (await (await get(`/api/v1/admin/audit?correlationId=${d.correlationId}`)).json()) as Array<
          Record<string, unknown>
        >;
        expect(rows.map(({ at: _at, ...r }) => r)).toEqual([
          {
            action: d.action,
            resource: expect.stringMatching(/^\/api\/v1\/admin\//),
            decision: 'deny',
            role: d.role,
            correlationId: d.correlationId,
          },
        ]);
        expect(JSON.stringify(rows)).not.toMatch(/9000000\d\d|mw-00\d/);
      }
    },
  );
});

describe('GET /console/', () => {
  it('when the console is opened, then its page comes with a strict CSP and no inline script or style', async () => {
    const redirect = await fetch(`${sys.gateway}/console`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/console/']);

    const res = await fetch(`${sys.gateway}/console/`);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';

    expect([res.status, res.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    // Paths are case-sensitive (ADR 0015): a case variant is an unknown resource.
    const variant = await fetch(`${sys.gateway}/Console/`);
    expect([variant.status, await variant.text()]).toEqual([404, '']);
    for (const asset of ['js/main.js', 'css/components.css', 'css/tokens.css']) {
      const file = await fetch(`${sys.gateway}/console/${asset}`);
      expect([asset, file.status]).toEqual([asset, 200]);
      await file.arrayBuffer();
    }
  });

  it('when the header stand-in runs, then the console is told to offer the demo identity picker', async () => {
    const res = await fetch(`${sys.gateway}/console/config.json`);
    expect(await res.json()).toEqual({ identityProvider: 'headers', issuer: null, clientId: null });
  });
});
