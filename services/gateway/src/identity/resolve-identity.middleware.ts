import type { RequestHandler } from 'express';
import { ROUTES, hasCapability, identityOf, type Identity, type RouteRule } from '@register/authz';
import { letters } from '@register/contracts';
import { DomainError } from '@register/problem';
import type { Clock } from '@register/service-kit';
import { applyCors } from './cors.middleware';
import type { Authentication, CallerProvider } from './identity-provider';
import { stepUpSatisfied, type StepUpPolicy } from './step-up';

/** The notification webhook carries its shared secret instead of an identity (ADR 0011). */
const sharedSecretPaths = new Set(ROUTES.filter((r) => r.requires.kind === 'shared-secret').map((r) => r.path));
const reveal = letters.routes.revealRegisterNummer;

/** What the gateway does about identity before the route table: CORS, the caller, the reveal's step-up. */
export interface IdentityFront {
  provider: CallerProvider;
  /** ADR 0015 `CORS_ORIGINS`. */
  corsOrigins: ReadonlySet<string>;
  /**
   * With `oidc`: the token's assurance the reveal needs; null with the header stand-in (letters checks `X-Step-Up`).
   */
  stepUp: StepUpPolicy | null;
  clock: Clock;
  /** Writes the audit row of a denial (proxy/audit-denial.ts), as the route table's 403 does. */
  auditDenial(rule: RouteRule, identity: Identity, correlationId: string): Promise<void>;
}

/**
 * ADR 0002: the identity first, so a request without one is a 401 before anything else is looked at. A CORS
 * preflight of a configured origin is answered before that (ADR 0015). Mounted on /api/v1, so its paths are relative.
 */
export function resolveIdentity(front: IdentityFront): RequestHandler {
  return async (req, res, next) => {
    if (applyCors(front.corsOrigins, req, res)) return;
    const sharedSecret = sharedSecretPaths.has(req.baseUrl + req.path);
    const authentication =
      sharedSecret && front.provider.readsAuthorization ? null : await front.provider.authenticate(req.headers);
    res.locals['identity'] = authentication?.identity ?? null;
    res.locals['authentication'] = authentication;
    if (!authentication && !sharedSecret) {
      req.resume();
      if (front.provider.challenge) res.setHeader('WWW-Authenticate', front.provider.challenge);
      return next(new DomainError('unauthenticated', front.provider.missingIdentityDetail));
    }
    next();
  };
}

/**
 * With `oidc`, the reveal's step-up (ADR 0010, issue 13): the token's assurance, checked on the reveal's own
 * route (Express's matching, so it covers whatever the route table serves there). Null with the header stand-in.
 */
export function stepUpCheck(front: IdentityFront): { rule: RouteRule; check: RequestHandler } | null {
  const stepUp = front.stepUp;
  if (!stepUp) return null;
  return {
    rule: reveal,
    check: async (req, res, next) => {
      const identity = identityOf(res);
      // Without the capability the route table answers 403 forbidden first (ADR 0010), audited there.
      if (!identity || !hasCapability(identity, 'brief:reveal-registernummer')) return next();
      const authentication = res.locals['authentication'] as Authentication | null;
      if (stepUpSatisfied(authentication?.assurance ?? null, stepUp, Math.floor(front.clock.now().getTime() / 1000)))
        return next();
      req.resume();
      await front.auditDenial(reveal, identity, String(res.locals['correlationId']));
      next(
        new DomainError(
          'step-up-required',
          'Revealing the register number needs a recent or stronger sign-in ' +
            '(acr or auth_time of the token) and the header X-Step-Up: true.',
        ),
      );
    },
  };
}
