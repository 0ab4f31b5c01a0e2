import { ROUTES, SERVICE_PREFIXES, authorize } from '../src';

describe('the route table', () => {
  it("when a route belongs to a service, then its path lies under one of that service's prefixes", () => {
    for (const rule of ROUTES.filter((r) => r.service !== 'gateway')) {
      const prefixes = SERVICE_PREFIXES[rule.service as Exclude<typeof rule.service, 'gateway'>];
      expect(prefixes.some((p) => rule.path === p || rule.path.startsWith(`${p}/`))).toBe(true);
    }
  });

  it('when no identity calls any route but the notification webhook, then it is unauthenticated (deny by default)', () => {
    for (const rule of ROUTES.filter((r) => r.requires.kind !== 'shared-secret'))
      expect(authorize(rule, null)).toBe('unauthenticated');
  });

  it('when a route is guarded by a shared secret instead of an identity, then it is only the notification webhook (ADR 0001, 0011)', () => {
    expect(ROUTES.filter((r) => r.requires.kind === 'shared-secret').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/notificaties',
    ]);
  });
});
