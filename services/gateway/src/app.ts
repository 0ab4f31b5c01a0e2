import type { RequestListener } from 'node:http';
import express from 'express';
import { bareNotFound, problemErrorHandler } from '@register/problem';
import { correlation, hygieneHeaders, operationsRouter, requestLogger, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { Context } from './context';
import { healthRouter } from './health/health.routes';
import { meRoutes } from './identity/me.routes';
import { gatewayOpenApi } from './openapi/gateway.openapi';
import { MergedOpenApi } from './openapi/merge';
import { openApiRouter } from './openapi/openapi.routes';
import { problemsRouter } from './problems/problems.routes';
import { apiRouter } from './proxy/api.routes';
import { collectBodyChunksEarly } from './proxy/memory';

/**
 * The gateway's whole request listener (runService's `app`): it has no signed identity to check, it makes
 * one. No body parser anywhere: proxied bodies stream through untouched.
 */
export function gatewayApp(ctx: Context, { readiness, logger }: { readiness: Record<string, ReadinessCheck>; logger: Logger }): RequestListener {
  // Uploads stream through: let V8 reclaim the parser's chunk copies as they go (see proxy/memory.ts).
  collectBodyChunksEarly();
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // decisions §3: the gateway fixes the correlation id; every response echoes it.
  app.use(correlation);
  // decisions §15: nosniff, API-Version, and under /api/v1 no-store and the data CSP (a service's own headers,
  // passed through by the proxy, replace them where it sets its own: stamdata's caching, a download's sandbox).
  app.use(hygieneHeaders);
  app.use(requestLogger(logger));
  app.use(healthRouter(readiness));
  app.use(openApiRouter(new MergedOpenApi(gatewayOpenApi(), ctx.targets, logger)));
  app.use(problemsRouter());
  app.use('/api/v1', apiRouter(ctx));
  app.use(operationsRouter(ctx, meRoutes));
  app.use(bareNotFound);
  app.use(problemErrorHandler(logger));
  return app;
}
