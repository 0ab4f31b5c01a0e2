import { capabilitiesOf } from './capabilities';
import { isAuthenticated, type Identity } from './identity';
import type { HttpMethod, RouteRule } from './routes';
import { ROUTES } from './routes';

export type AuthorizationOutcome = 'allow' | 'unauthenticated' | 'forbidden';

/** 401 before 403 (decisions §2); deny by default. */
export function authorize(rule: RouteRule, identity: Identity | null): AuthorizationOutcome {
  if (rule.requires.kind === 'shared-secret') return 'allow';
  if (!isAuthenticated(identity)) return 'unauthenticated';
  if (rule.requires.kind === 'identity') return 'allow';
  const caps = capabilitiesOf(identity);
  return rule.requires.anyOf.some((c) => caps.includes(c)) ? 'allow' : 'forbidden';
}

export function findRule(method: string, path: string, rules: readonly RouteRule[] = ROUTES): RouteRule | undefined {
  return rules.find((r) => r.method === (method as HttpMethod) && r.path === path);
}
