import express, { type Express } from 'express';
import type { Kysely } from 'kysely';
import type { IdentityProvider } from '@register/authz';
import { bareNotFound, problemErrorHandler } from '@register/problem';
import { correlation, requestLogger, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { GatewayDb } from './data-access/gateway.tables';
import { Idempotency } from './idempotency/idempotency';
import { gatewayOpenApi } from './openapi/gateway.openapi';
import { MergedOpenApi } from './openapi/merge';
import { collectBodyChunksEarly } from './proxy/memory';
import { createUpstreams, type Upstream, type UpstreamName } from './proxy/upstreams';
import { apiRouter } from './routes/api.routes';
import { publicRouter } from './routes/public.routes';

export interface Deps {
  db: Kysely<GatewayDb>;
  logger: Logger;
  identityProvider: IdentityProvider;
  internalSecret: string;
  targets: Record<UpstreamName, string>;
  readiness: Record<string, ReadinessCheck>;
  maxSocketsPerService?: number;
  proxyTimeoutMs?: number;
}

export function createApp(deps: Deps): { app: Express; upstreams: Record<UpstreamName, Upstream> } {
  // Uploads stream through: let V8 reclaim the parser's chunk copies as they go (see proxy/memory.ts).
  collectBodyChunksEarly();
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const idempotency = new Idempotency(deps.db, deps.logger);
  const upstreams = createUpstreams({
    targets: deps.targets,
    logger: deps.logger,
    maxSocketsPerService: deps.maxSocketsPerService ?? 64,
    proxyTimeoutMs: deps.proxyTimeoutMs ?? 120_000,
    onIdempotentResponse: (state, status, headers, body) => idempotency.respond(state, status, headers, body),
    onIdempotentFailure: (state) => idempotency.fail(state),
  });

  // decisions §3: the gateway fixes the correlation id; every response echoes it.
  app.use(correlation);
  app.use(requestLogger(deps.logger));
  const readiness: Record<string, ReadinessCheck> = { ...deps.readiness };
  for (const [name, url] of Object.entries(deps.targets)) {
    readiness[name] = async () => (await fetch(new URL('/health/ready', url), { signal: AbortSignal.timeout(2000) })).ok;
  }
  app.use(publicRouter(new MergedOpenApi(gatewayOpenApi(), deps.targets, deps.logger), readiness));
  app.use('/api/v1', apiRouter({ db: deps.db, identityProvider: deps.identityProvider, upstreams, idempotency, internalSecret: deps.internalSecret }));
  app.use(bareNotFound);
  app.use(problemErrorHandler(deps.logger));
  return { app, upstreams };
}
