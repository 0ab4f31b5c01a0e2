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

/** The route table's rule as Express middleware: 401, then 403 (decisions §2). */
export function guardFor(rule: RouteRule): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    const outcome = authorize(rule, identityOf(res));
    if (outcome === 'unauthenticated') return next(new DomainError('unauthenticated', 'This request carries no valid identity.'));
    if (outcome === 'forbidden') return next(new DomainError('forbidden', 'The caller lacks the capability this route needs.'));
    next();
  };
}

/**
 * Mounts a public route, guarded by its rule from the context's contract. The rule must be in the assembled
 * route table (so the gateway enforces the same), or start-up fails.
 */
export function mountRoute(router: Router, rule: RouteRule, ...handlers: RequestHandler[]): void;
/** @deprecated transition form: look the rule up by service, method and path. */
export function mountRoute(router: Router, service: ServiceName, method: HttpMethod, path: string, ...handlers: RequestHandler[]): void;
export function mountRoute(router: Router, ...args: unknown[]): void {
  let rule: RouteRule | undefined;
  let handlers: RequestHandler[];
  if (typeof args[0] === 'string') {
    const [service, method, path, ...rest] = args as [ServiceName, HttpMethod, string, ...RequestHandler[]];
    rule = findRule(method, path);
    if (rule && rule.service !== service) rule = undefined;
    if (!rule) throw new Error(`route ${method} ${path} is not in the route table for ${service}`);
    handlers = rest;
  } else {
    const given = args[0] as RouteRule;
    rule = findRule(given.method, given.path);
    if (!rule || rule.service !== given.service) throw new Error(`route ${given.method} ${given.path} is not in the route table`);
    handlers = args.slice(1) as RequestHandler[];
  }
  const lower = rule.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  router[lower](rule.path, guardFor(rule), ...handlers);
}
