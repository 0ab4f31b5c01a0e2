import type { RequestHandler, Router } from 'express';
import { match, type MatchFunction, type ParamData } from 'path-to-regexp';
import { caseSensitiveRouter } from '@register/service-kit';
import { ROUTES, authorize, identityOf, type RouteRule } from '@register/authz';
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
  const routes = ROUTES.map((rule) => {
    const path = rule.path.replace(/^\/api\/v1/, '');
    const handle = ruleHandler(ctx, rule);
    const steppedUp = stepUp && rule.method === stepUp.rule.method && rule.path === stepUp.rule.path;
    const handlers: RequestHandler[] = steppedUp ? [stepUp.check, handle] : [handle];
    return { rule, path, handlers };
  });
  router.use(routeTable(routes));
  // The table above takes every request a rule matches; these take the rest as Express would have (no rule: on to
  // the routers after this one; OPTIONS: Express's answer with the methods the path allows; a path parameter that
  // does not decode: 400).
  for (const { rule, path, handlers } of routes) {
    const method = rule.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](path, ...handlers);
  }
  return router;
}

/** One rule's work: authorize (403 audited), then the gateway's own operation or the owning service. */
function ruleHandler(ctx: Context, rule: RouteRule): RequestHandler {
  return async (req, res, next) => {
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
    // The gateway's own operations are in the routers after this one.
    if (rule.service === 'gateway') return next('router');
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
  };
}

interface TableRoute {
  rule: RouteRule;
  /** The rule's path under /api/v1. */
  path: string;
  handlers: RequestHandler[];
}

/**
 * The route table as one lookup (ADR 0274): the rules of a method under the path's first segment, each matched as
 * Express matches a route (path-to-regexp, case-sensitive, an optional trailing slash). Express's router tries
 * every route in turn with its own bookkeeping per layer: tens of microseconds for a rule late in the table.
 * What no rule matches goes on untouched (next), and so does a match whose parameters do not decode: Express's
 * own routes behind this one answer those as before.
 */
function routeTable(routes: TableRoute[]): RequestHandler {
  type Matching = TableRoute & { matches: MatchFunction<ParamData> };
  const table = new Map<string, Map<string, Matching[]>>();
  for (const route of routes) {
    const byFirst = table.get(route.rule.method) ?? new Map<string, Matching[]>();
    table.set(route.rule.method, byFirst);
    const first = firstSegment(route.path);
    const list = byFirst.get(first) ?? [];
    byFirst.set(first, list);
    list.push({ ...route, matches: match(route.path, { sensitive: true, end: true, trailing: true, decode: false }) });
  }
  return (req, res, next) => {
    // A HEAD is a GET's, as in Express (no rule names HEAD).
    const byFirst = table.get(req.method === 'HEAD' ? 'GET' : req.method);
    const path = req.path;
    const candidates = byFirst?.get(firstSegment(path));
    if (!candidates) return next();
    for (const route of candidates) {
      const found = route.matches(path);
      if (!found) continue;
      if (!decodes(found.params)) return next();
      // What the kit's request metric and log read for the route's name, as Express's route would give.
      (req as { route?: unknown }).route = { path: route.path };
      const [first, second] = route.handlers;
      if (!second) return first!(req, res, next);
      return first!(req, res, (err?: unknown) => (err ? next(err) : second(req, res, next)));
    }
    return next();
  };
}

/** `applications` of `/applications/:id/submit`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

/** Whether every path parameter decodes (Express answers 400 for one that does not). */
function decodes(params: ParamData): boolean {
  for (const value of Object.values(params)) {
    if (typeof value !== 'string') continue;
    try {
      decodeURIComponent(value);
    } catch {
      return false;
    }
  }
  return true;
}
