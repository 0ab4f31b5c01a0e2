import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { ROUTES, auditRole, authorize, capabilitiesOf, identityOf, type IdentityProvider, type RouteRule } from '@register/authz';
import { DomainError } from '@register/problem';
import { SUBJECTS, enqueueEvent, type AuditEventData } from '@register/service-kit';
import type { GatewayDb } from '../data-access/gateway.tables';
import { forwardedHeaders } from '../proxy/forwarding';
import type { Upstream, UpstreamName } from '../proxy/upstreams';
import type { Idempotency } from '../idempotency/idempotency';

export interface ApiDeps {
  db: Kysely<GatewayDb>;
  identityProvider: IdentityProvider;
  upstreams: Record<UpstreamName, Upstream>;
  idempotency: Idempotency;
  internalSecret: string;
}

const sharedSecretPaths = new Set(ROUTES.filter((r) => r.requires.kind === 'shared-secret').map((r) => r.path));

async function auditDenial(deps: ApiDeps, rule: RouteRule, res: Response): Promise<void> {
  if (!rule.auditDenialAs) return;
  const data: AuditEventData = { action: rule.auditDenialAs, resource: rule.path, decision: 'deny', role: auditRole(identityOf(res)) };
  await enqueueEvent(deps.db, SUBJECTS.audit('gateway'), 'audit', { ...data }, String(res.locals['correlationId']));
}

/**
 * /api/v1: resolve the identity (401 first), then match the route table (unknown: bare 404), enforce
 * its requirement (403), and hand the request to the owning service or answer it here.
 */
export function apiRouter(deps: ApiDeps): Router {
  const router = Router();

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const identity = await deps.identityProvider.resolve(req.headers);
    res.locals['identity'] = identity;
    if (!identity && !sharedSecretPaths.has(req.baseUrl + req.path)) {
      req.resume();
      return next(new DomainError('unauthenticated', 'This request carries no valid identity (X-Subject or X-Medewerker).'));
    }
    next();
  });

  for (const rule of ROUTES) {
    const method = rule.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const path = rule.path.replace(/^\/api\/v1/, '');
    router[method](path, async (req: Request, res: Response, next: NextFunction) => {
      const identity = identityOf(res);
      const outcome = authorize(rule, identity);
      if (outcome !== 'allow') {
        req.resume();
        if (outcome === 'forbidden') await auditDenial(deps, rule, res);
        return next(new DomainError(outcome, outcome === 'forbidden' ? 'The caller lacks the capability this route needs.' : 'No identity.'));
      }
      if (rule.service === 'gateway') return next();
      if (!(await deps.idempotency.begin(req, res, identity))) return;
      req.headers = forwardedHeaders(req.headers, {
        secret: deps.internalSecret,
        identity,
        correlationId: String(res.locals['correlationId']),
        passAuthorization: rule.requires.kind === 'shared-secret',
      });
      // Mounted under /api/v1, Express stripped the prefix from req.url; the service owns the full path.
      req.url = req.originalUrl;
      const upstream = deps.upstreams[rule.service];
      return (res.locals['idempotency'] ? upstream.idempotent : upstream.stream)(req, res, next);
    });
  }

  router.get('/me', (_req, res) => {
    res.json({ capabilities: capabilitiesOf(identityOf(res)) });
  });
  return router;
}
