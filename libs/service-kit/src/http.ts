import express, {
  Router,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
  type NextFunction,
} from 'express';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { INTERNAL_IDENTITY_HEADER, verifyInternalIdentity } from '@register/authz';
import { bareNotFound, problemErrorHandler, sendProblem } from '@register/problem';
import { CORRELATION_HEADER, acceptCorrelationId, runWithContext } from './context';
import { refuseHostileUrl } from './hostile-input';
import type { Logger } from './logger';
import type { RequestLoad } from './request-load';
import { metricsOf } from './telemetry/metrics';
import { SpanStatusCode, startRequestSpan, withTraceContext, type Span } from './telemetry/trace-context';

export type ReadinessCheck = () => Promise<boolean>;

/** ADR 0015: paths are case-sensitive, so `/API/V1/...` is an unknown resource, never a route's twin. */
export function caseSensitiveRouter(): Router {
  return Router({ caseSensitive: true });
}

/** An Express app with the register's defaults: case-sensitive paths, no `X-Powered-By`. */
export function registerApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  return app;
}

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  internalSecret: string;
  readiness: Record<string, ReadinessCheck>;
  openApi: () => object;
  /** Counts the requests the service answers (health probes aside), for background work that yields to them. */
  requests?: RequestLoad;
}

/** Runs every readiness check at once; a check that throws counts as not ready. */
export async function checkReadiness(checks: Record<string, ReadinessCheck>): Promise<Record<string, boolean>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await check().catch(() => false)] as const),
  );
  return Object.fromEntries(entries);
}

/**
 * Reads and drops the rest of a request body that was answered without being read, at most `limitBytes`;
 * past that the connection is cut. Closing at once instead makes the kernel answer the client's next bytes
 * with a reset, which can destroy the unread answer on the client's side.
 */
export function discardRequestBody(req: IncomingMessage, limitBytes: number): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limitBytes) req.socket.destroy();
  });
  req.resume();
}

/** The API's version, sent on every response (ADR 0015; `info.version` of the description stays `v1`). */
export const API_VERSION = '1.0.0';
/** JSON and problem answers are data, never a page: nothing may load from them or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The path and at most 1 KiB of the query: a URL may be 16 KB of whatever a client sent. */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url.length > 2048 ? `${url.slice(0, 2048)}…` : url;
  const query = url.slice(q + 1);
  return `${url.slice(0, Math.min(q, 2048))}?${query.length > 1024 ? `${query.slice(0, 1024)}…` : query}`;
}

/** Ends a request's server span, with the semantic conventions' attributes when it is recorded. */
function endRequestSpan(
  span: Span,
  request: { method: string; route: string; status: number; correlationId: string; aborted: boolean },
): void {
  if (span.isRecording()) {
    // Semantic conventions for HTTP server spans; the route's pattern, never the URL (it may carry personal data).
    span.updateName(`${request.method} ${request.route}`);
    span.setAttributes({
      'http.request.method': request.method,
      'http.route': request.route,
      'http.response.status_code': request.status,
      'correlation.id': request.correlationId,
    });
    if (request.status >= 500 || request.aborted)
      span.setStatus({ code: SpanStatusCode.ERROR, message: request.aborted ? 'aborted' : undefined });
  }
  span.end();
}

/**
 * What every request gets first, in one step (the gateway's hot path pays for each layer):
 * - ADR 0003: the correlation id (kept when well-formed), echoed, and scoped to the request;
 * - ADR 0015 hygiene: `nosniff` and `API-Version` on every response; under `/api/v1` and `/internal` also
 *   `Cache-Control: no-store` and the data CSP, which a route may replace (stamdata's ETag, a download's sandbox);
 * - W3C Trace Context: the caller's `traceparent` is continued (the gateway starts a trace when there is none)
 *   in a server span of this service's own, exported when the SDK runs (telemetry/tracing.ts);
 * - at the end, one log line, one duration observation and the span's end. Probes (`/health…`) get none of the three.
 * The log line holds method, url, status, time and `reqId` = the correlation id; no headers, identity or body.
 * Nothing is built unless the line's level is on; 5xx and aborted responses are errors.
 */
export function requestScope(logger: Logger, requests?: RequestLoad): RequestHandler {
  const metrics = metricsOf(logger);
  return (req, res, next) => {
    const correlationId = acceptCorrelationId(req.headers[CORRELATION_HEADER]);
    res.locals['correlationId'] = correlationId;
    res.setHeader('X-Correlation-Id', correlationId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('API-Version', API_VERSION);
    const path = req.path;
    if (path.startsWith('/api/') || path.startsWith('/internal/')) {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Security-Policy', API_CSP);
    }
    if (req.url.startsWith('/health')) return runWithContext({ correlationId }, next);
    requests?.count();

    const start = performance.now();
    const { span, context } = startRequestSpan(req.headers, req.method);
    const traceId = span.spanContext().traceId;
    res.locals['traceId'] = traceId;
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const seconds = (performance.now() - start) / 1000;
      // The route's pattern (bounded), never the raw URL; what no route matched is `unmatched`.
      const route = req.route ? `${req.baseUrl}${String((req.route as { path: unknown }).path)}` : 'unmatched';
      const status = res.headersSent ? res.statusCode : 0;
      // 'close' without 'finish': the client went away (or the response was destroyed) mid-response.
      const aborted = !res.writableFinished;
      metrics?.httpDuration.observe({ method: req.method, route, status_code: status }, seconds);
      endRequestSpan(span, { method: req.method, route, status, correlationId, aborted });
      // A client that went away is the client's business: warn, with what was known; a 5xx is ours: error.
      const level = res.statusCode >= 500 && !aborted ? 'error' : aborted ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: correlationId,
          correlationId,
          traceId,
          method: req.method,
          url: loggableUrl(req.originalUrl),
          statusCode: aborted && !res.headersSent ? null : res.statusCode,
          responseTime: Math.round(seconds * 1000),
        },
        aborted ? 'request aborted' : 'request completed',
      );
    };
    res.on('finish', end);
    res.on('close', end);
    runWithContext({ correlationId }, () => withTraceContext(context, next));
  };
}

/**
 * The Express app every service starts from: correlation id, request logging, signed identity,
 * health probes and the internal OpenAPI document. The service adds its routers, then calls `finish`.
 */
export function createServiceApp(options: ServiceAppOptions): { app: Express; finish: () => void } {
  const app = registerApp();
  app.set('trust proxy', 'loopback');

  app.use(requestScope(options.logger, options.requests));

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
  // Hostile paths, queries and headers are refused before any handler (after identity: 401 comes first).
  app.use(refuseHostileUrl);

  return {
    app,
    finish() {
      app.use(bareNotFound);
      app.use(problemErrorHandler(options.logger));
    },
  };
}
