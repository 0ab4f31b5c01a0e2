import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { eventually, serve, startService, type TestService } from '@register/testkit';
import type { Context } from '../src/context';
import { start } from '../src/main';
import { auditEventsOf } from './support/audit-stream';
import { forge, mint, signingKey, tamper, TestIssuer, type SigningKey } from './support/test-issuer';

// IDENTITY_PROVIDER=oidc (ADR 0001): the caller is a bearer access token verified against a real issuer's
// JWKS over HTTP. The services behind the gateway are one stand-in that records what reaches it: what is proven
// here is the gateway's decision, made before anything is proxied.

const PORTAL = 'http://portal.test:3000';
const COOLDOWN_MS = 1000;
let issuer: TestIssuer;
let rsa: SigningKey;
let ec: SigningKey;
let gateway: TestService<Context>;
let behind: { url: string; close(): Promise<void> };
const arrived: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];

function oidcEnv(issuerUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  const url = behind.url;
  return {
    IDENTITY_PROVIDER: 'oidc',
    OIDC_ISSUER: issuerUrl,
    OIDC_AUDIENCE: 'register-api',
    OIDC_JWKS_COOLDOWN: String(COOLDOWN_MS),
    CORS_ORIGINS: PORTAL,
    APPLICATIONS_URL: url,
    DOCUMENTS_URL: url,
    LETTERS_URL: url,
    REFERENCE_URL: url,
    AUDIT_URL: url,
    ...extra,
  };
}

beforeAll(async () => {
  behind = await serve(
    http.createServer((req, res) => {
      arrived.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end('{"registerNummer":"stand-in"}');
    }),
  );
  issuer = await new TestIssuer().start();
  rsa = await signingKey('rsa-1', 'RS256');
  ec = await signingKey('ec-1', 'ES256');
  issuer.keys = [rsa, ec];
  gateway = await startService(start, { name: 'gateway_oidc', env: oidcEnv(issuer.issuer) });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await issuer?.close();
  await behind?.close();
}, 30_000);

const call = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${gateway.url}${path}`, { method, headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const token = (claims: Record<string, unknown>, options: Partial<Parameters<typeof mint>[1]> = {}) =>
  mint(claims, { key: rsa, issuer: issuer.issuer, ...options });
const capabilitiesWith = async (headers: Record<string, string>) => {
  const res = await call('/api/v1/me', headers);
  expect(res.status).toBe(200);
  return ((await res.json()) as { capabilities: string[] }).capabilities;
};

async function expectUnauthenticated(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  const body = (await res.json()) as { type: string; status: number };
  expect(body.type).toMatch(/\/problems\/unauthenticated$/);
  expect(body.status).toBe(401);
}

describe('GET /api/v1/me with IDENTITY_PROVIDER=oidc', () => {
  const drafter = { bsn: '900000001', role: 'drafter' };

  it.each<[string, () => Promise<Record<string, string>>]>([
    ['no token', async () => ({})],
    [
      'only identity headers',
      async () => ({
        'X-Subject': '900000001',
        'X-Role': 'admin',
        'X-Medewerker': 'mw-001',
        'X-Rollen': 'beoordelaar',
      }),
    ],
    ['another scheme', async () => ({ Authorization: `Basic ${Buffer.from('900000001:x').toString('base64')}` })],
    ['a token that is not a JWT', async () => bearer('not-a-token')],
    ['an expired token (beyond the 30 s leeway)', async () => bearer(await token(drafter, { expiresIn: -90 }))],
    ['a token not valid before a minute from now', async () => bearer(await token(drafter, { notBefore: 90 }))],
    ['a token for another audience', async () => bearer(await token(drafter, { audience: 'another-api' }))],
    ['a token of another issuer', async () => bearer(await token(drafter, { issuer: 'https://idp.example.org' }))],
    ['alg: none', async () => bearer(await forge('none', drafter, rsa, issuer.issuer))],
    [
      'HS256 signed with the public key',
      async () => bearer(await forge('hs256-public-key', drafter, rsa, issuer.issuer)),
    ],
    ['a tampered payload (role raised to admin)', async () => bearer(tamper(await token(drafter), { role: 'admin' }))],
    ['a tampered payload (another subject)', async () => bearer(tamper(await token(drafter), { bsn: '900000002' }))],
    [
      'a token signed by a key the issuer does not publish',
      async () => bearer(await mint(drafter, { key: await signingKey('rsa-1'), issuer: issuer.issuer })),
    ],
    [
      'an unknown kid',
      async () => bearer(await mint(drafter, { key: await signingKey('nobody-knows-me'), issuer: issuer.issuer })),
    ],
    ['a token with neither a subject nor an employee claim', async () => bearer(await token({ role: 'admin' }))],
    ['a subject claim that is not an identifier', async () => bearer(await token({ bsn: '9000 0000 1' }))],
  ])('when the request carries %s, then 401 unauthenticated', async (_name, headers) => {
    await expectUnauthenticated(await call('/api/v1/me', await headers()));
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'practitioner 900000001',
      { bsn: '900000001', role: 'drafter' },
      ['applications:own', 'brief:edit', 'brief:reveal-registernummer'],
    ],
    [
      'practitioner 900000002',
      { bsn: '900000002', role: 'drafter' },
      ['applications:own', 'brief:edit', 'brief:reveal-registernummer'],
    ],
    ['a citizen (a bsn and no role claim)', { bsn: '900000003' }, ['applications:own']],
    [
      'practitioner 900000004',
      { bsn: '900000004', role: 'drafter' },
      ['applications:own', 'brief:edit', 'brief:reveal-registernummer'],
    ],
    ['the approver', { bsn: '900000002', role: 'approver' }, ['applications:own', 'brief:approve']],
    [
      'the admin',
      { bsn: '900000003', role: 'admin' },
      [
        'applications:own',
        'audit:read',
        'cases:admin',
        'flags:write',
        'orgtemplate:edit',
        'stamdata:read',
        'uploads:admin-delete',
      ],
    ],
    [
      'the case handler (rollen an array)',
      { medewerker: 'mw-001', rollen: ['beoordelaar'] },
      ['CanBeoordelen', 'stamdata:read'],
    ],
    [
      'a case handler (rollen comma-separated)',
      { medewerker: 'mw-002', rollen: ' Behandelaar , BEOORDELAAR' },
      ['CanBeoordelen', 'stamdata:read'],
    ],
    ['a case handler without roles', { medewerker: 'mw-003' }, []],
    ['an unknown role (a citizen: no fall-back to drafter)', { bsn: '900000001', role: 'root' }, ['applications:own']],
    [
      'both a practitioner and a case handler',
      { bsn: '900000003', role: 'approver', medewerker: 'mw-001', rollen: 'beoordelaar' },
      ['CanBeoordelen', 'applications:own', 'brief:approve', 'stamdata:read'],
    ],
  ])('when %s sends a valid token, then exactly its capabilities', async (_name, claims, capabilities) => {
    expect(await capabilitiesWith(bearer(await token(claims)))).toEqual(capabilities);
  });

  it('when the token is signed with ES256, then it counts as well', async () => {
    expect(
      await capabilitiesWith(
        bearer(await mint({ bsn: '900000003', role: 'admin' }, { key: ec, issuer: issuer.issuer })),
      ),
    ).toContain('audit:read');
  });

  it('when a token expired 20 s ago (inside the leeway), then it still counts', async () => {
    expect(await capabilitiesWith(bearer(await token(drafter, { expiresIn: -20 })))).toContain('brief:edit');
  });

  it('when identity headers come alongside a token, then they change nothing', async () => {
    const headers = {
      ...bearer(await token(drafter)),
      'X-Subject': '900000003',
      'X-Role': 'admin',
      'X-Medewerker': 'mw-001',
      'X-Rollen': 'beoordelaar',
      'X-Admin': 'true',
    };
    expect(await capabilitiesWith(headers)).toEqual(['applications:own', 'brief:edit', 'brief:reveal-registernummer']);
  });

  it(
    'when a proxied route is called with a token, then the service gets ' +
      'the signed identity and neither the token nor the identity headers',
    async () => {
      const res = await call('/api/v1/dashboard-view', {
        ...bearer(await token(drafter)),
        'X-Subject': '900000003',
        'X-Correlation-Id': 'oidc-forward-1',
      });
      expect(res.status).toBe(200);
      const seen = arrived.find((a) => a.headers['x-correlation-id'] === 'oidc-forward-1');
      expect(seen?.url).toBe('/api/v1/dashboard-view');
      expect(seen?.headers[INTERNAL_IDENTITY_HEADER]).toEqual(expect.any(String));
      expect(seen?.headers.authorization).toBeUndefined();
      expect(seen?.headers['x-subject']).toBeUndefined();
    },
  );
});

describe('the notification webhook with IDENTITY_PROVIDER=oidc (ADR 0011)', () => {
  const notification = JSON.stringify({
    kanaal: 'zaken',
    hoofdObject: 'https://zaken.example/zaken/1',
    resource: 'zaak',
    resourceUrl: 'https://zaken.example/zaken/1',
    actie: 'create',
    aanmaakdatum: '2026-11-23T10:00:00Z',
  });

  it(
    'when Open Notificaties posts with its shared secret (not a token), ' +
      'then the gateway passes it on unchanged for the service to check',
    async () => {
      const res = await fetch(`${gateway.url}/api/v1/notificaties`, {
        method: 'POST',
        headers: {
          Authorization: 'Token oidc-webhook-secret',
          'Content-Type': 'application/json',
          'X-Correlation-Id': 'oidc-webhook-1',
        },
        body: notification,
      });
      expect(res.status).toBe(200);
      const seen = arrived.find((a) => a.headers['x-correlation-id'] === 'oidc-webhook-1');
      expect(seen?.url).toBe('/api/v1/notificaties');
      expect(seen?.headers.authorization).toBe('Token oidc-webhook-secret');
    },
  );

  it(
    'when the same shared secret is sent to any other route, ' +
      'then 401 with a Bearer challenge and nothing is proxied',
    async () => {
      const res = await call('/api/v1/dashboard-view', {
        Authorization: 'Token oidc-webhook-secret',
        'X-Correlation-Id': 'oidc-webhook-2',
      });
      await expectUnauthenticated(res);
      expect(arrived.some((a) => a.headers['x-correlation-id'] === 'oidc-webhook-2')).toBe(false);
    },
  );
});

describe('POST /api/v1/brief/reveal-registernummer with IDENTITY_PROVIDER=oidc (step-up)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const loa2 = 'urn:etoegang:core:assurance-class:loa2';
  const loa3 = 'urn:etoegang:core:assurance-class:loa3';

  async function reveal(claims: Record<string, unknown>) {
    const correlationId = `oidc-reveal-${randomUUID()}`;
    const since = new Date(Date.now() - 2000);
    const res = await call(
      '/api/v1/brief/reveal-registernummer',
      { ...bearer(await token(claims)), 'X-Step-Up': 'true', 'X-Correlation-Id': correlationId },
      'POST',
    );
    return {
      res,
      correlationId,
      since,
      reachedLetters: arrived.some((a) => a.headers['x-correlation-id'] === correlationId),
    };
  }

  it.each<[string, Record<string, unknown>]>([
    ['a plain sign-in an hour ago (loa2)', { acr: loa2, auth_time: now() - 3600 }],
    ['no acr and no auth_time', {}],
    ['an acr the gateway does not know', { acr: 'urn:example:very-strong', auth_time: now() - 3600 }],
    ['an auth_time in the future', { acr: loa2, auth_time: now() + 3600 }],
  ])(
    'when a drafter signed in with %s, then 403 step-up-required, audited, and letters never sees it',
    async (_name, assurance) => {
      const { res, correlationId, since, reachedLetters } = await reveal({
        bsn: '900000001',
        role: 'drafter',
        ...assurance,
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { type: string }).type).toMatch(/\/problems\/step-up-required$/);
      expect(reachedLetters).toBe(false);
      const events = await auditEventsOf(gateway.databaseUrl, correlationId, since);
      expect(events).toEqual([
        {
          action: 'reveal-registernummer',
          resource: '/api/v1/brief/reveal-registernummer',
          decision: 'deny',
          role: 'drafter',
        },
      ]);
      expect(JSON.stringify(events)).not.toContain('900000001');
    },
  );

  it.each<[string, Record<string, unknown>]>([
    ['eToegang loa3', { acr: loa3, auth_time: now() - 3600 }],
    ['eToegang loa4', { acr: 'urn:etoegang:core:assurance-class:loa4' }],
    ['DigiD Substantieel', { acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard' }],
    ['eIDAS substantial', { acr: 'http://eidas.europa.eu/LoA/substantial' }],
    ['a sign-in (loa2) a minute ago', { acr: loa2, auth_time: now() - 60 }],
  ])(
    'when a drafter signed in with %s, then the request goes on to letters with X-Step-Up',
    async (_name, assurance) => {
      const { res, correlationId, reachedLetters } = await reveal({ bsn: '900000001', role: 'drafter', ...assurance });
      expect(res.status).toBe(200);
      expect(reachedLetters).toBe(true);
      expect(arrived.find((a) => a.headers['x-correlation-id'] === correlationId)?.headers['x-step-up']).toBe('true');
    },
  );

  it('when an approver asks, even with loa4, then 403 forbidden first (the capability), audited once', async () => {
    const { res, correlationId, since } = await reveal({
      bsn: '900000002',
      role: 'approver',
      acr: 'urn:etoegang:core:assurance-class:loa4',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { type: string }).type).toMatch(/\/problems\/forbidden$/);
    expect(await auditEventsOf(gateway.databaseUrl, correlationId, since)).toEqual([
      {
        action: 'reveal-registernummer',
        resource: '/api/v1/brief/reveal-registernummer',
        decision: 'deny',
        role: 'approver',
      },
    ]);
  });

  it(
    'when the path has a trailing slash, then the step-up ' + 'is still required; in another letter case it is unknown',
    async () => {
      const weak = { bsn: '900000001', role: 'drafter', acr: loa2, auth_time: now() - 3600 };
      const slash = await call(
        '/api/v1/brief/reveal-registernummer/',
        { ...bearer(await token(weak)), 'X-Step-Up': 'true' },
        'POST',
      );
      expect(slash.status).toBe(403);
      expect(((await slash.json()) as { type: string }).type).toMatch(/\/problems\/step-up-required$/);
      const correlationId = `oidc-case-${randomUUID()}`;
      const cased = await call(
        '/api/v1/Brief/Reveal-Registernummer',
        { ...bearer(await token(weak)), 'X-Step-Up': 'true', 'X-Correlation-Id': correlationId },
        'POST',
      );
      expect([cased.status, await cased.text()]).toEqual([404, '']);
      expect(arrived.some((a) => a.headers['x-correlation-id'] === correlationId)).toBe(false);
    },
  );

  it(
    'when a citizen (a bsn and no role claim) asks with loa4, ' + 'then 403 forbidden, audited with role none',
    async () => {
      const { res, correlationId, since, reachedLetters } = await reveal({
        bsn: '900000001',
        acr: 'urn:etoegang:core:assurance-class:loa4',
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { type: string }).type).toMatch(/\/problems\/forbidden$/);
      expect(reachedLetters).toBe(false);
      expect(await auditEventsOf(gateway.databaseUrl, correlationId, since)).toEqual([
        {
          action: 'reveal-registernummer',
          resource: '/api/v1/brief/reveal-registernummer',
          decision: 'deny',
          role: 'none',
        },
      ]);
    },
  );
});

describe("a case's brief with IDENTITY_PROVIDER=oidc (ADR 0010: staff data)", () => {
  const read = async (claims: Record<string, unknown>, path: string) => {
    const correlationId = `oidc-brief-${randomUUID()}`;
    const res = await call(path, { ...bearer(await token(claims)), 'X-Correlation-Id': correlationId });
    return {
      status: res.status,
      type: res.status === 403 ? ((await res.json()) as { type: string }).type : null,
      reachedLetters: arrived.some((a) => a.headers['x-correlation-id'] === correlationId),
    };
  };

  it.each([
    ['GET /api/v1/brief', '/api/v1/brief?referentie=AV-2026-000006'],
    ['GET /api/v1/brief (an empty referentie)', '/api/v1/brief?referentie='],
    ['GET /api/v1/brief/preview', '/api/v1/brief/preview?referentie=AV-2026-000006'],
  ])(
    "when a citizen reads a case's brief (%s), then 403 at the gateway and letters never sees it",
    async (_n, path) => {
      expect(await read({ bsn: '900000001' }, path)).toEqual({
        status: 403,
        type: expect.stringMatching(/\/problems\/forbidden$/),
        reachedLetters: false,
      });
    },
  );

  it('when a citizen reads the shared working brief, then it is passed on, as the contract has it', async () => {
    expect(await read({ bsn: '900000001' }, '/api/v1/brief')).toEqual({
      status: 200,
      type: null,
      reachedLetters: true,
    });
  });

  it.each([
    ['a drafter', { bsn: '900000001', role: 'drafter' }],
    ['an approver', { bsn: '900000002', role: 'approver' }],
    ['an admin (cases:admin)', { bsn: '900000003', role: 'admin' }],
  ])("when %s reads a case's brief, then it is passed on to letters", async (_n, claims) => {
    expect(await read(claims, '/api/v1/brief?referentie=AV-2026-000006')).toEqual({
      status: 200,
      type: null,
      reachedLetters: true,
    });
  });
});

describe('the issuer keys with IDENTITY_PROVIDER=oidc', () => {
  const drafter = { bsn: '900000001', role: 'drafter' };

  it('when tokens with unknown kids pour in, then the JWKS is fetched at most once per cool-down', async () => {
    const stranger = await signingKey('stranger');
    const forged = await mint(drafter, { key: stranger, issuer: issuer.issuer });
    const before = issuer.jwksFetches;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => call('/api/v1/me', bearer(forged))));
    for (let i = 0; i < 10; i += 1) answers.push(await call('/api/v1/me', bearer(forged)));
    const elapsed = Date.now() - started;
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(401));
    expect(issuer.jwksFetches - before).toBeLessThanOrEqual(1 + Math.floor(elapsed / COOLDOWN_MS));
  });

  it(
    'when the issuer rotates to a new key, then its tokens count ' +
      'without a restart, and the old key still works while published',
    async () => {
      const next = await signingKey('rsa-2');
      issuer.keys = [rsa, ec, next];
      const fresh = await mint(drafter, { key: next, issuer: issuer.issuer });
      await eventually(
        async () => ((await call('/api/v1/me', bearer(fresh))).status === 200 ? true : undefined),
        10_000,
        200,
      );
      expect(await capabilitiesWith(bearer(await token(drafter)))).toContain('brief:edit');
    },
  );

  it.each(['down', 'hang'] as const)(
    'when the issuer is %s, then cached keys keep working and an unknown kid is 401 without waiting for the issuer',
    async (mode) => {
      const valid = await token(drafter);
      const unknown = await mint(drafter, { key: await signingKey(`unknown-${mode}`), issuer: issuer.issuer });
      issuer.mode = mode;
      try {
        const seenBefore = issuer.unanswered;
        // Until the gateway has actually tried the unreachable issuer (the cool-down over). A hanging issuer never
        // answers while the test runs: an answer at all shows the gateway did not wait for it.
        const answers: Response[] = [];
        await eventually(
          async () => {
            answers.push(await call('/api/v1/me', bearer(unknown)));
            return issuer.unanswered > seenBefore ? true : undefined;
          },
          10_000,
          100,
        );
        answers.push(await call('/api/v1/me', bearer(unknown)));
        for (const res of answers) await expectUnauthenticated(res);
        expect(await capabilitiesWith(bearer(valid))).toContain('brief:edit');
      } finally {
        issuer.mode = 'up';
      }
    },
  );

  it(
    'when the issuer hangs before the gateway ever had its keys, ' +
      'then a token is 401 without waiting for the issuer',
    async () => {
      const silent = await new TestIssuer().start();
      silent.mode = 'hang';
      const cold = await startService(start, { name: 'gateway_oidc_cold', env: oidcEnv(silent.issuer) });
      try {
        // The issuer answers nothing while the test runs: every answer here came without it.
        for (let i = 0; i < 3; i += 1) {
          const res = await fetch(`${cold.url}/api/v1/me`, {
            headers: bearer(await mint(drafter, { key: rsa, issuer: silent.issuer })),
          });
          await expectUnauthenticated(res);
        }
        expect(silent.unanswered).toBeGreaterThanOrEqual(1);
      } finally {
        await cold.close();
        await silent.close();
      }
    },
  );
});

describe('CORS (ADR 0015) in front of identity', () => {
  it(
    'when a configured origin sends a preflight, ' +
      'then 204 with the allowed methods and headers, before any identity',
    async () => {
      const res = await fetch(`${gateway.url}/api/v1/me`, {
        method: 'OPTIONS',
        headers: {
          Origin: PORTAL,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
      expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    },
  );

  it(
    'when a configured origin calls without a token, ' +
      'then the 401 carries the CORS headers so the portal can read it',
    async () => {
      const res = await call('/api/v1/me', { Origin: PORTAL });
      expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
      expect(res.headers.get('access-control-expose-headers')).toContain('X-Correlation-Id');
      await expectUnauthenticated(res);
    },
  );

  it(
    'when another origin sends a preflight, then it is answered ' +
      'without CORS headers and without asking for an identity',
    async () => {
      const res = await fetch(`${gateway.url}/api/v1/me`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('www-authenticate')).toBeNull();
      for (const name of ['allow-origin', 'allow-methods', 'allow-headers'])
        expect([name, res.headers.get(`access-control-${name}`)]).toEqual([name, null]);
    },
  );

  it(
    'when another origin calls without a token, ' +
      'then 401 without CORS headers: its browser keeps the answer from it',
    async () => {
      const res = await fetch(`${gateway.url}/api/v1/me`, { headers: { Origin: 'https://evil.example' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    },
  );

  it('when /openapi.json is read from any origin, then it may be', async () => {
    const res = await fetch(`${gateway.url}/openapi.json`, { headers: { Origin: 'https://anyone.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
