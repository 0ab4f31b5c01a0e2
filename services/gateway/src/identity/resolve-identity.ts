import type { RequestHandler } from 'express';
import { ROUTES } from '@register/authz';
import { DomainError } from '@register/problem';
import type { IdentityProvider } from './identity-provider';

/** The notification webhook carries its shared secret instead of an identity (decisions §11). */
const sharedSecretPaths = new Set(ROUTES.filter((r) => r.requires.kind === 'shared-secret').map((r) => r.path));

/** decisions §2: the identity first, so a request without one is a 401 before anything else is looked at. */
export function resolveIdentity(provider: IdentityProvider): RequestHandler {
  return async (req, res, next) => {
    const identity = await provider.resolve(req.headers);
    res.locals['identity'] = identity;
    if (!identity && !sharedSecretPaths.has(req.baseUrl + req.path)) {
      req.resume();
      return next(new DomainError('unauthenticated', 'This request carries no valid identity (X-Subject or X-Medewerker).'));
    }
    next();
  };
}
