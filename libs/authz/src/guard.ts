import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { DomainError } from '@register/problem';
import { authorize, findRule } from './authorize';
import { hasCapability, type Capability } from './capabilities';
import type { Identity } from './identity';
import type { HttpMethod, RouteRule, ServiceName } from './routes';

/** The verified identity that the service kit put on the response locals. */
export function identityOf(res: Response): Identity | null {
  return (res.locals['identity'] as Identity | undefined) ?? null;
}

export function requireIdentity(res: Response): Identity {
  const identity = identityOf(res);
  if (!identity) throw new DomainError('unauthenticated', 'No identity.');
  return identity;
}

/** Throws a 403 unless the caller holds the capability (use for checks inside a use case's route). */
export function requireCapability(res: Response, capability: Capability): Identity {
  const identity = requireIdentity(res);
  if (!hasCapability(identity, capability)) throw new DomainError('forbidden', `This needs the capability ${capability}.`);
  return identity;
}

function guardFor(rule: RouteRule): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    const outcome = authorize(rule, identityOf(res));
    if (outcome === 'unauthenticated') return next(new DomainError('unauthenticated', 'This request carries no valid identity.'));
    if (outcome === 'forbidden') return next(new DomainError('forbidden', 'The caller lacks the capability this route needs.'));
    next();
  };
}

/**
 * Mounts a public route, guarded by its rule in the route table. A route that is not in the table
 * (or belongs to another service) fails at start-up, so enforcement and table cannot drift.
 */
export function mountRoute(router: Router, service: ServiceName, method: HttpMethod, path: string, ...handlers: RequestHandler[]): void {
  const rule = findRule(method, path);
  if (!rule || rule.service !== service) throw new Error(`route ${method} ${path} is not in the route table for ${service}`);
  const lower = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[lower](path, guardFor(rule), ...handlers);
}
