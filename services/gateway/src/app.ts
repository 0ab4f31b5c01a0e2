import type { RequestListener } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { bareNotFound, problemErrorHandler } from '@register/problem';
import {
  discardRequestBody,
  operationsRouter,
  registerApp,
  requestScope,
  type Logger,
  type ReadinessCheck,
} from '@register/service-kit';
import { systemRoutes } from './admin-system/system.routes';
import { consoleRouter } from './console/console.routes';
import type { Context } from './context';
import { healthRouter } from './health/health.routes';
import { meRoutes } from './identity/me.routes';
import { gatewayOpenApi } from './openapi/gateway.openapi';
import { MergedOpenApi } from './openapi/merge';
import { openApiIdentity } from './openapi/oidc-security';
import { openApiRouter } from './openapi/openapi.routes';
import { problemsRouter } from './problems/problems.routes';
import { apiRouter } from './proxy/api.routes';
import { settleUrlParseWarning } from './proxy/legacy-url';
import { collectBodyChunksEarly } from './proxy/memory';
import { bodyRateGuard } from './proxy/slow-body.middleware';

/**
 * The gateway's whole request listener (runService's `app`): it has no signed identity to check, it makes
 * one. No body parser anywhere: proxied bodies stream through untouched.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Runs `answer` once the client's body is read (dropped, up to a bound; past it the connection is cut): a
 * client that asked `Connection: close` would otherwise see the close meet its unread bytes, and the kernel's
 * reset destroy the answer before it is read.
 */
function afterBody(req: Request, answer: () => void): void {
  if (req.complete || req.readableEnded) return answer();
  req.once('end', answer);
  discardRequestBody(req, DRAIN_LIMIT_BYTES);
}

export function gatewayApp(
  ctx: Context,
  { readiness, logger }: { readiness: Record<string, ReadinessCheck>; logger: Logger },
): RequestListener {
  // Uploads stream through: let V8 reclaim the parser's chunk copies as they go (see proxy/memory.ts).
  collectBodyChunksEarly();
  // Express's parseurl calls url.parse for a path it cannot read fast: without its warning given once, a stack
  // walk each time (see proxy/legacy-url.ts).
  settleUrlParseWarning();
  const problemAnswer = problemErrorHandler(logger);
  const app = registerApp();
  app.disable('etag');
  // ADR 0003: the gateway fixes the correlation id; every response echoes it. ADR 0015: nosniff,
  // API-Version, and under /api/v1 no-store and the data CSP (a service's own headers, passed through by the
  // proxy, replace them where it sets its own: stamdata's caching, a download's sandbox). The trace, the log line.
  app.use(requestScope(logger));
  app.use(
    bodyRateGuard({ minBytesPerSecond: ctx.config.REQUEST_BODY_MIN_RATE, windowMs: ctx.config.REQUEST_BODY_WINDOW_MS }),
  );
  // The API first: nearly every request is one, and the routers below serve no path under /api/v1.
  app.use('/api/v1', apiRouter(ctx));
  app.use(healthRouter(readiness));
  app.use(
    openApiRouter(new MergedOpenApi(gatewayOpenApi(), ctx.targets, logger, undefined, openApiIdentity(ctx.config))),
  );
  app.use(problemsRouter());
  app.use(consoleRouter(ctx.config));
  app.use(operationsRouter(ctx, [...meRoutes, ...systemRoutes]));
  // Answered here, not proxied: read and drop what the client still sends (up to a bound), or the close after
  // the answer meets unread bytes and the kernel's reset destroys the answer before the client reads it.
  app.use((req: Request, res: Response, next: NextFunction) => afterBody(req, () => bareNotFound(req, res, next)));
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) =>
    afterBody(req, () => problemAnswer(err, req, res, next)),
  );
  return app;
}
