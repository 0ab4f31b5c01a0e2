import express, { type Express, type Request, type RequestHandler, type Response, type NextFunction } from 'express';
import { pinoHttp } from 'pino-http';
import { INTERNAL_IDENTITY_HEADER, verifyInternalIdentity } from '@register/authz';
import { bareNotFound, problemErrorHandler, sendProblem } from '@register/problem';
import { CORRELATION_HEADER, acceptCorrelationId, runWithContext } from './context';
import type { Logger } from './logger';

export type ReadinessCheck = () => Promise<boolean>;

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  internalSecret: string;
  readiness: Record<string, ReadinessCheck>;
  openApi: () => object;
  /** JSON body limit for this service's routes. */
  jsonLimit?: string;
}

/** Runs every readiness check at once; a check that throws counts as not ready. */
export async function checkReadiness(checks: Record<string, ReadinessCheck>): Promise<Record<string, boolean>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await check().catch(() => false)] as const),
  );
  return Object.fromEntries(entries);
}

/** decisions §3: fixes the request's correlation id (kept when well-formed), echoes it, and scopes it to the request. */
export const correlation: RequestHandler = (req, res, next) => {
  const correlationId = acceptCorrelationId(req.headers[CORRELATION_HEADER]);
  res.locals['correlationId'] = correlationId;
  res.setHeader('X-Correlation-Id', correlationId);
  runWithContext({ correlationId }, next);
};

/** One log line per request (probes excepted), its id the correlation id. */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String((res as Response).locals['correlationId']),
    autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  }) as unknown as RequestHandler;
}

/**
 * The Express app every service starts from: correlation id, request logging, signed identity,
 * health probes and the internal OpenAPI document. The service adds its routers, then calls `finish`.
 */
export function createServiceApp(options: ServiceAppOptions): { app: Express; finish: () => void } {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  app.use(correlation);
  app.use(requestLogger(options.logger));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.get('/health/ready', async (_req, res) => {
    const checks = await checkReadiness(options.readiness);
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', service: options.service, checks });
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(options.openApi());
  });

  // Everything else needs the gateway's (or a calling service's) signed identity.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const header = req.headers[INTERNAL_IDENTITY_HEADER];
    const claims = verifyInternalIdentity(options.internalSecret, Array.isArray(header) ? header[0] : header);
    if (!claims) return sendProblem(req, res, 'unauthenticated', 'The request carries no valid internal identity.');
    res.locals['identity'] = claims.identity;
    res.locals['caller'] = claims.service;
    if (req.path.startsWith('/internal/') && !claims.service) {
      return sendProblem(req, res, 'forbidden', 'Internal routes serve other services only.');
    }
    next();
  });
  app.use(express.json({ limit: options.jsonLimit ?? '300kb', type: ['application/json', 'application/*+json'] }));

  return {
    app,
    finish() {
      app.use(bareNotFound);
      app.use(problemErrorHandler(options.logger));
    },
  };
}
