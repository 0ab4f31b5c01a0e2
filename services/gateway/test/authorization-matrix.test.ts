import { ROUTES, authorize, HeaderIdentityProvider, type RouteRule } from '@register/authz';
import { startSystem, users, type TestSystem, type UserKind } from './support/system';

// Generated from the one route table: every route x every kind of caller -> 401, 403 or allowed.
let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem();
}, 120_000);
afterAll(async () => sys?.close(), 60_000);

const provider = new HeaderIdentityProvider();
const kinds = Object.keys(users) as UserKind[];

async function expected(rule: RouteRule, kind: UserKind): Promise<'401' | '403' | 'allowed'> {
  const identity = await provider.resolve(Object.fromEntries(Object.entries(users[kind]).map(([k, v]) => [k.toLowerCase(), v])));
  const outcome = authorize(rule, identity);
  return outcome === 'unauthenticated' ? '401' : outcome === 'forbidden' ? '403' : 'allowed';
}

const cases = ROUTES.flatMap((rule) => kinds.map((kind) => [`${rule.method} ${rule.path}`, kind, rule] as const));

describe('authorization matrix', () => {
  it('covers every route of the table for every kind of caller', () => {
    expect(cases).toHaveLength(ROUTES.length * kinds.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it.each(cases)('%s as %s', async (_name, kind, rule) => {
    const path = rule.path.replace(/:[A-Za-z]+/g, 'matrix-probe');
    const want = await expected(rule, kind);
    // X-Step-Up: the reveal's second check (decisions §10) is the letters service's, not the route table's.
    const res = await fetch(`${sys.gateway}${path}`, {
      method: rule.method,
      headers: { ...users[kind], 'content-type': 'application/json', 'X-Step-Up': 'true' },
      ...(rule.method === 'GET' ? {} : { body: '{}' }),
    });
    await res.arrayBuffer();
    if (want === 'allowed') {
      expect([401, 403]).not.toContain(res.status);
      expect(res.status).toBeLessThan(500);
    } else {
      expect(res.status).toBe(Number(want));
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('when a route is not in the table, then a bare 404 (deny by default), also for /api/v1 paths of a service', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/brief/nope', '/api/v1/applications/x/y/z', '/elsewhere']) {
      const res = await fetch(`${sys.gateway}${path}`, { headers: users.admin });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('');
    }
  });
});
