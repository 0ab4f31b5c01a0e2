import { capabilitySet } from './capabilities';
import { isAuthenticated, type Identity } from './identity';
import type { HttpMethod, Requirement, RouteRule } from './routes';
import { ROUTES } from './routes';

export type AuthorizationOutcome = 'allow' | 'unauthenticated' | 'forbidden';

function meets(requires: Requirement, identity: Identity): boolean {
  if (requires.kind !== 'capability') return true;
  const caps = capabilitySet(identity);
  return requires.anyOf.some((c) => caps.has(c));
}

/**
 * 401 before 403 (ADR 0002); deny by default. `query` is the request's parsed query: a rule `scoped` to a
 * query parameter (a case's brief) also needs its scoped requirement when that parameter is present.
 */
export function authorize(
  rule: RouteRule,
  identity: Identity | null,
  query: Readonly<Record<string, unknown>> = {},
): AuthorizationOutcome {
  if (rule.requires.kind === 'shared-secret') return 'allow';
  if (!isAuthenticated(identity)) return 'unauthenticated';
  if (!meets(rule.requires, identity)) return 'forbidden';
  if (rule.scoped && query[rule.scoped.query] !== undefined && !meets(rule.scoped.requires, identity))
    return 'forbidden';
  return 'allow';
}

export function findRule(method: string, path: string, rules: readonly RouteRule[] = ROUTES): RouteRule | undefined {
  return rules.find((r) => r.method === (method as HttpMethod) && r.path === path);
}
