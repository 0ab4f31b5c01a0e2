import { type Router } from 'express';
import { caseSensitiveRouter } from '@register/service-kit';
import { ROUTES, authorize, identityOf } from '@register/authz';
import { DomainError } from '@register/problem';
import type { Context } from '../context';
import { idempotencyOf } from '../idempotency/idempotency.middleware';
import { resolveIdentity, stepUpCheck } from '../identity/resolve-identity.middleware';
import { auditDenial } from './audit-denial';
import { forwardedHeaders } from './forwarding';

/**
 * /api/v1: resolve the identity (401 first), then match the route table (unknown: bare 404), enforce
 * its requirement (403), and hand the request to the owning service, or on to the gateway's own operations.
 */
export function apiRouter(ctx: Context): Router {
  const router = caseSensitiveRouter();
  router.use(resolveIdentity(ctx.identityProvider));
  const stepUp = stepUpCheck(ctx.identityProvider);

  for (const rule of ROUTES) {
    const method = rule.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const path = rule.path.replace(/^\/api\/v1/, '');
    if (stepUp && rule.method === stepUp.rule.method && rule.path === stepUp.rule.path)
      router[method](path, stepUp.check);
    router[method](path, async (req, res, next) => {
      const identity = identityOf(res);
      const correlationId = String(res.locals['correlationId']);
      // The query is parsed (Express's getter, on every read) only for a rule scoped to one of its parameters.
      const outcome = authorize(rule, identity, rule.scoped ? req.query : undefined);
      if (outcome !== 'allow') {
        req.resume();
        if (outcome === 'forbidden') await auditDenial(ctx.db, rule, identity, correlationId);
        return next(
          new DomainError(
            outcome,
            outcome === 'forbidden' ? 'The caller lacks the capability this route needs.' : 'No identity.',
          ),
        );
      }
      if (rule.service === 'gateway') return next();
      if (!(await ctx.idempotency.begin(req, res, identity, ctx.clock.now()))) return;
      req.headers = forwardedHeaders(req.headers, {
        identityToken: ctx.signedIdentities.tokenFor(identity),
        correlationId,
        passAuthorization: rule.requires.kind === 'shared-secret',
      });
      // Mounted under /api/v1, Express stripped the prefix from req.url; the service owns the full path.
      req.url = req.originalUrl;
      const upstream = ctx.upstreams[rule.service];
      return (idempotencyOf(req) ? upstream.idempotent : upstream.stream)(req, res, next);
    });
  }
  return router;
}
