import { ROUTES, SERVICE_PREFIXES, authorize } from '../src';

describe('the route table', () => {
  it('when a route belongs to a service, then its path lies under one of that service\'s prefixes', () => {
    for (const rule of ROUTES.filter((r) => r.service !== 'gateway')) {
      const prefixes = SERVICE_PREFIXES[rule.service as Exclude<typeof rule.service, 'gateway'>];
      expect(prefixes.some((p) => rule.path === p || rule.path.startsWith(`${p}/`))).toBe(true);
    }
  });

  it('when no identity calls any route, then it is unauthenticated (deny by default)', () => {
    for (const rule of ROUTES) expect(authorize(rule, null)).toBe('unauthenticated');
  });
});
