import http from 'node:http';
import type { RequestHandler, Request, Response } from 'express';
import { createProxyMiddleware, responseInterceptor } from 'http-proxy-middleware';
import { sendProblem } from '@register/problem';
import type { ServiceName } from '@register/authz';
import type { Logger } from '@register/service-kit';
import type { IdempotencyState } from '../idempotency/idempotency';

export type UpstreamName = Exclude<ServiceName, 'gateway'>;

export interface UpstreamOptions {
  targets: Record<UpstreamName, string>;
  logger: Logger;
  /** Upper bound of connections from the gateway to each service. */
  maxSocketsPerService: number;
  proxyTimeoutMs: number;
  /** Called with a proxied response of a request that carries an Idempotency-Key. */
  onIdempotentResponse: (state: IdempotencyState, status: number, headers: http.IncomingHttpHeaders, body: Buffer) => Promise<void>;
  onIdempotentFailure: (state: IdempotencyState) => Promise<void>;
}

export interface Upstream {
  /** Streams request and response through. */
  stream: RequestHandler;
  /** Also keeps the (small JSON) response of a write with an Idempotency-Key before it is sent. */
  idempotent: RequestHandler;
  agent: http.Agent;
}

function idempotencyOf(res: http.ServerResponse): IdempotencyState | undefined {
  return (res as Response).locals?.['idempotency'] as IdempotencyState | undefined;
}

export function createUpstreams(options: UpstreamOptions): Record<UpstreamName, Upstream> {
  const entries = (Object.keys(options.targets) as UpstreamName[]).map((name) => {
    // Keep-alive with a bound: without an agent every request opens (and closes) a connection.
    // The idle timeout stays below the services' keepAliveTimeout (65 s) so a reused socket is never one the service just closed.
    const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSocketsPerService, maxFreeSockets: options.maxSocketsPerService, timeout: 30_000 });
    const onError = (err: Error, req: http.IncomingMessage, res: http.ServerResponse | import('node:net').Socket) => {
      options.logger.warn({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code }, upstream: name }, 'upstream failed');
      const response = res as Response;
      const state = response.locals ? idempotencyOf(response) : undefined;
      if (state) void options.onIdempotentFailure(state);
      if (response.headersSent === false) sendProblem(req as Request, response, 'unavailable', `The ${name} service is unavailable.`);
      else response.destroy?.();
    };
    const common = { target: options.targets[name], agent, changeOrigin: true, xfwd: false, proxyTimeout: options.proxyTimeoutMs, timeout: options.proxyTimeoutMs };
    const stream = createProxyMiddleware({ ...common, on: { error: onError } });
    const idempotent = createProxyMiddleware({
      ...common,
      selfHandleResponse: true,
      on: {
        error: onError,
        // Hash the raw body on its way through: the listener is added in the same tick as http-proxy's pipe.
        proxyReq: (_proxyReq, req, res) => {
          const state = idempotencyOf(res);
          if (state) req.on('data', (chunk: Buffer) => state.hash.update(chunk));
        },
        proxyRes: responseInterceptor(async (body, proxyRes, _req, res) => {
          const state = idempotencyOf(res);
          if (state) await options.onIdempotentResponse(state, proxyRes.statusCode ?? 500, proxyRes.headers, body);
          return body;
        }),
      },
    });
    const upstream: Upstream = { stream: stream as unknown as RequestHandler, idempotent: idempotent as unknown as RequestHandler, agent };
    return [name, upstream] as const;
  });
  return Object.fromEntries(entries) as unknown as Record<UpstreamName, Upstream>;
}
