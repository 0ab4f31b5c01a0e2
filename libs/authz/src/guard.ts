import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '@register/problem';
import { authorize } from './authorize';
import { hasCapability, type Capability } from './capabilities';
import type { Identity } from './identity';
import type { RouteRule } from './routes';

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
  if (!hasCapability(identity, capability))
    throw new DomainError('forbidden', `This needs the capability ${capability}.`);
  return identity;
}

/** The route table's rule as Express middleware: 401, then 403 (ADR 0002). */
export function guardFor(rule: RouteRule): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const outcome = authorize(rule, identityOf(res), req.query);
    if (outcome === 'unauthenticated')
      return next(new DomainError('unauthenticated', 'This request carries no valid identity.'));
    if (outcome === 'forbidden')
      return next(new DomainError('forbidden', 'The caller lacks the capability this route needs.'));
    next();
  };
}
