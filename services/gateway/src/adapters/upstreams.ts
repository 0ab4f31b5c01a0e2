import http from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler, Request, Response } from 'express';
import { sendProblem } from '@register/problem';
import { discardRequestBody, type Logger } from '@register/service-kit';
import { hashWhileStreaming, idempotencyOf, type IdempotencyState } from '../idempotency/idempotency.middleware';
import { Breaker } from '../proxy/breaker';
import { Replicas } from '../proxy/replicas';
import {
  keepBodyForRetry,
  keepSmallBodyForRetry,
  markAnswered,
  markRetried,
  mayRetry,
  replayBody,
} from '../proxy/retry';
import { isSlowBody, onSlowBody } from '../proxy/slow-body.middleware';

import type { UpstreamName } from '../proxy/upstream-name';

export type { UpstreamName };

export interface UpstreamOptions {
  /** Each service's URL, or its copies' URLs: requests go round robin over them. */
  targets: Record<UpstreamName, string | readonly string[]>;
  logger: Logger;
  /** Upper bound of connections from the gateway to each service. */
  maxSocketsPerService: number;
  /** A service that does not answer within this (no byte for so long) gives a 503 (ADR 0015: 10 s). */
  proxyTimeoutMs: number;
  /** The same for uploads and content downloads, where bytes move slowly but keep moving (30 s). */
  streamIdleTimeoutMs?: number;
  /**
   * Called with the proxied response of a request that carries an Idempotency-Key and whose whole body was read
   * (state.requestHash set).
   */
  onIdempotentResponse: (
    state: IdempotencyState,
    status: number,
    headers: http.IncomingHttpHeaders,
    body: Buffer,
  ) => Promise<void>;
  /**
   * Called when such a request failed, or was answered before its whole body arrived (nothing to compare a retry with).
   */
  onIdempotentFailure: (state: IdempotencyState) => Promise<void>;
}

export interface Upstream {
  /** Streams request and response through. */
  stream: RequestHandler;
  /** Also keeps the (small JSON) response of a write with an Idempotency-Key before it is sent. */
  idempotent: RequestHandler;
  agent: http.Agent;
  breaker: Breaker;
}

/** A service's address, parsed once: where a request to it goes and the Host it carries. */
interface Target {
  hostname: string;
  port: number;
  /** The Host field the service gets (the gateway names the service, as a proxy that changes the origin does). */
  host: string;
  /** The URL's path, put before the request's path ('' for the root). */
  path: string;
}

function targetOf(url: string): Target {
  const u = new URL(url);
  return {
    // An IPv6 literal without its brackets, as http.request wants a hostname.
    hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port === '' ? 80 : Number(u.port),
    host: u.host,
    path: u.pathname === '/' ? '' : u.pathname,
  };
}

/** The path the service gets: the target's path, then the request's as the client sent it, slashes collapsed. */
function pathOf(target: Target, url: string): string {
  const joined = target.path + url;
  if (!joined.includes('//')) return joined;
  const query = joined.indexOf('?');
  const path = query === -1 ? joined : joined.slice(0, query);
  return path.replace(/\/+/g, '/') + (query === -1 ? '' : joined.slice(query));
}

/** Routes whose bodies are large: the idle limit applies while bytes keep moving. */
function isStreamingRoute(req: http.IncomingMessage): boolean {
  const url = req.url ?? '';
  return (
    (req.method === 'POST' && url.startsWith('/api/v1/uploads')) || /^\/api\/v1\/uploads\/[^/]+\/content/.test(url)
  );
}

/** RFC 9110 §7.6.1: connection-specific fields a proxy does not pass on, plus those the Connection field names. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The fields the service's Connection field names: hop-by-hop too. */
function namedByConnection(headers: http.IncomingHttpHeaders): string[] | null {
  const connection = headers.connection;
  return typeof connection === 'string' ? connection.split(',').map((name) => name.trim().toLowerCase()) : null;
}

/**
 * The client's own Connection field (the forwarded headers no longer hold it). The answer says `keep-alive` when
 * the service's has none (`passOn`), which would keep a connection the client asked to close.
 */
function clientAskedClose(req: http.IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'connection' && /\bclose\b/i.test(raw[i + 1] ?? '')) return true;
  }
  return false;
}

/** How much of a body nobody reads any more the gateway drops before it cuts the client's connection instead. */
const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Once the answer to the client is done (or its connection is gone) while the client is still sending, the
 * rest of the body has no reader: stop sending it to the service (that connection is dropped, never reused
 * half-written) and discard what the client still sends (up to a bound), so a keep-alive connection stays usable and
 * the client reads the answer instead of a reset.
 */
function abandonUnreadBody(proxyReq: http.ClientRequest, req: http.IncomingMessage, res: http.ServerResponse): void {
  res.once('close', () => {
    if (req.complete) return;
    req.unpipe(proxyReq);
    proxyReq.destroy();
    discardRequestBody(req, DISCARD_LIMIT_BYTES);
  });
}

/**
 * A service that cuts its answer short: the client must see a cut connection at once, not wait for the proxy timeout.
 */
function cutWithService(proxyRes: http.IncomingMessage, res: http.ServerResponse): void {
  proxyRes.once('close', () => {
    if (!proxyRes.complete) res.destroy();
  });
}

/** What the handlers of one service's proxy share: its copies, its breaker and its keep-alive agent. */
interface UpstreamParts {
  name: UpstreamName;
  options: UpstreamOptions;
  replicas: Replicas;
  /** Each copy's URL parsed once. */
  targets: Map<string, Target>;
  breaker: Breaker;
  agent: http.Agent;
  /** Requests the gateway cut for the service's silence: only these open the breaker. */
  timedOut: WeakSet<http.IncomingMessage>;
}

type ProxyErrorHandler = (err: Error, req: http.IncomingMessage, res: http.ServerResponse | Socket) => void;

export function createUpstreams(options: UpstreamOptions): Record<UpstreamName, Upstream> {
  const names = Object.keys(options.targets) as UpstreamName[];
  return Object.fromEntries(names.map((name) => [name, upstreamOf(name, options)])) as Record<UpstreamName, Upstream>;
}

/** One service's proxy: streaming and idempotent handlers behind its breaker, over one keep-alive agent. */
function upstreamOf(name: UpstreamName, options: UpstreamOptions): Upstream {
  // Keep-alive with a bound: without an agent every request opens (and closes) a connection.
  // The idle timeout stays below the services' keepAliveTimeout (65 s) so a reused socket is never one the service
  // just closed.
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.maxSocketsPerService,
    maxFreeSockets: options.maxSocketsPerService,
    timeout: 30_000,
  });
  const target = options.targets[name];
  const replicas = new Replicas(typeof target === 'string' ? [target] : target);
  const breaker = new Breaker(name, replicas.urls[0]!, options.logger);
  const targets = new Map(replicas.urls.map((url) => [url, targetOf(url)]));
  const parts: UpstreamParts = { name, options, replicas, targets, breaker, agent, timedOut: new WeakSet() };
  // A retried request goes through the proxy it came from; both are built below.
  const proxies: { stream?: RequestHandler; idempotent?: RequestHandler } = {};
  const onError = proxyErrorHandler(parts, (req) => (idempotencyOf(req) ? proxies.idempotent! : proxies.stream!));
  const onProxyReq = proxyRequestHandler(parts);
  const onProxyRes = proxyResponseHandler(parts);
  const stream = pipe(parts, { onError, onProxyReq, onProxyRes, answer: passOn });
  const idempotentProxy = pipe(parts, { onError, onProxyReq, onProxyRes, answer: keepingResponse(options) });
  proxies.stream = stream;
  proxies.idempotent = idempotentProxy;
  const idempotent: RequestHandler = (req, res, next) => {
    const state = idempotencyOf(req);
    if (state) {
      hashWhileStreaming(req, res, state);
      keepBodyForRetry(req);
    }
    return idempotentProxy(req, res, next);
  };
  const streamKeepingSmallBodies: RequestHandler = (req, res, next) => {
    keepSmallBodyForRetry(req);
    return stream(req, res, next);
  };
  return {
    stream: failFast(parts, streamKeepingSmallBodies),
    idempotent: failFast(parts, idempotent),
    agent,
    breaker,
  };
}

/** A failed proxy request: retried once on another copy where that is safe, else a 503 (or a cut response). */
function proxyErrorHandler(
  { name, options, replicas, breaker, timedOut }: UpstreamParts,
  retryThrough: (req: http.IncomingMessage) => RequestHandler,
): ProxyErrorHandler {
  return (err, req, res) => {
    const state = idempotencyOf(req);
    // The gateway cut the request for its slow body: the client's doing, answered already (408).
    if (isSlowBody(req)) {
      if (state && !state.settled) void options.onIdempotentFailure(state);
      return;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') replicas.refused(req);
    const response = res as Response;
    if (response.headersSent === false && mayRetry(err, req, replicas.urls.length)) {
      options.logger.info({ err: { message: err.message, code }, upstream: name }, 'upstream failed; retried');
      markRetried(req);
      return void retryThrough(req)(req as Request, response, () => undefined);
    }
    options.logger.warn({ err: { message: err.message, code }, upstream: name }, 'upstream failed');
    // Only the gateway's own idle timeout opens the breaker: a reset or a refusal is quick to answer anyway.
    if (timedOut.has(req)) breaker.tripped();
    if (state && !state.settled) void options.onIdempotentFailure(state);
    if (response.headersSent === false)
      sendProblem(req as Request, response, 'unavailable', `The ${name} service is unavailable.`);
    else response.destroy?.();
  };
}

function proxyRequestHandler({ name, options, timedOut }: UpstreamParts) {
  const streamIdle = options.streamIdleTimeoutMs ?? 30_000;
  return (proxyReq: http.ClientRequest, req: http.IncomingMessage, res: http.ServerResponse) => {
    replayBody(proxyReq, req);
    abandonUnreadBody(proxyReq, req, res);
    onSlowBody(req, () => proxyReq.destroy());
    // No byte from the service for so long: the service is stuck, not slow. Only its own silence counts: while
    // the body is still being sent and the service reads what it gets, the wait is the client's
    // (slow-body.middleware.ts).
    const idle = isStreamingRoute(req) ? streamIdle : options.proxyTimeoutMs;
    proxyReq.setTimeout(idle, () => {
      if (!proxyReq.writableFinished && !proxyReq.writableNeedDrain) return;
      timedOut.add(req);
      proxyReq.destroy(Object.assign(new Error(`no answer from ${name} within ${idle} ms`), { code: 'ETIMEDOUT' }));
    });
  };
}

function proxyResponseHandler({ breaker }: UpstreamParts) {
  return (proxyRes: http.IncomingMessage, req: http.IncomingMessage, res: http.ServerResponse) => {
    // Any answer, even a 5xx, shows the service is alive.
    markAnswered(req);
    breaker.close();
    cutWithService(proxyRes, res);
  };
}

type ProxyHandlers = {
  onError: ProxyErrorHandler;
  onProxyReq: ReturnType<typeof proxyRequestHandler>;
  onProxyRes: ReturnType<typeof proxyResponseHandler>;
  /** Sends the service's answer on to the client. */
  answer: (proxyRes: http.IncomingMessage, req: http.IncomingMessage, res: http.ServerResponse) => void;
};

/**
 * The proxy core (ADR 0271): the request piped to a copy of the service over the keep-alive agent, the answer piped
 * back. What http-proxy did for the gateway, without its per-request passes, option objects and event emitter.
 */
function pipe({ replicas, targets, agent }: UpstreamParts, handlers: ProxyHandlers): RequestHandler {
  const { onError, onProxyReq, onProxyRes, answer } = handlers;
  return (req, res) => {
    const target = targets.get(replicas.pick(req))!;
    // A DELETE or OPTIONS without a body says so, as some servers wait for one otherwise.
    if ((req.method === 'DELETE' || req.method === 'OPTIONS') && !req.headers['content-length']) {
      req.headers['content-length'] = '0';
      delete req.headers['transfer-encoding'];
    }
    // The request's fields are the gateway's own object (proxy/forwarding.ts), made for this request: the copy's
    // Host goes in it, not in another copy of them all.
    const headers = req.headers;
    headers.host = target.host;
    const proxyReq = http.request({
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: pathOf(target, req.url),
      headers,
      agent,
    });
    onProxyReq(proxyReq, req, res);
    req.on('aborted', () => proxyReq.destroy());
    // A write to a response the client already cut: the pipe stops on its own; no crash for an unheard error.
    res.on('error', ignore);
    const failed = (err: Error) => {
      // The client went away: nothing to answer.
      if (req.socket.destroyed && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return void proxyReq.destroy();
      onError(err, req, res);
    };
    req.on('error', failed);
    proxyReq.on('error', failed);
    req.pipe(proxyReq);
    proxyReq.on('response', (proxyRes) => {
      onProxyRes(proxyRes, req, res);
      // The client went before the whole answer: stop reading it (the socket is not reused half-read).
      res.once('close', () => {
        if (!res.writableEnded) proxyRes.destroy();
      });
      answer(proxyRes, req, res);
    });
  };
}

const ignore = (): void => undefined;

/** The service's answer streamed to the client: its status and fields (less the hop-by-hop ones), then its body. */
function passOn(proxyRes: http.IncomingMessage, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (res.writableEnded) return void proxyRes.resume();
  if (!res.headersSent) {
    // An HTTP/1.0 client's connection closes after the answer, as does one whose client asked it to.
    setAnswerHead(proxyRes, res, req.httpVersion === '1.0' || clientAskedClose(req) ? 'close' : 'keep-alive');
  }
  proxyRes.pipe(res);
}

/**
 * The service's status and fields on the client's response. The hop-by-hop fields (RFC 9110 §7.6.1: those of
 * `HOP_BY_HOP` and those its Connection field names) are skipped, not deleted from the service's: a deleted property
 * turns the object into a slow dictionary, on every answer. `connection` is the gateway's own Connection field.
 */
function setAnswerHead(proxyRes: http.IncomingMessage, res: http.ServerResponse, connection?: string): void {
  res.statusCode = proxyRes.statusCode ?? 502;
  if (proxyRes.statusMessage) res.statusMessage = proxyRes.statusMessage;
  const headers = proxyRes.headers;
  const named = namedByConnection(headers);
  for (const key in headers) {
    if (HOP_BY_HOP.has(key) || named?.includes(key)) continue;
    const value = headers[key];
    if (value !== undefined) res.setHeader(key, value);
  }
  if (connection !== undefined) res.setHeader('connection', connection);
}

/**
 * The answer to a write with an Idempotency-Key: read whole, kept (or its failure noted), then sent with its
 * length. A small JSON answer (the services' writes).
 */
function keepingResponse(options: UpstreamOptions): ProxyHandlers['answer'] {
  return (proxyRes, req, res) => {
    const chunks: Buffer[] = [];
    proxyRes.on('data', (chunk: Buffer) => chunks.push(chunk));
    proxyRes.on('error', () => res.destroy());
    proxyRes.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const state = idempotencyOf(req);
        try {
          if (state?.requestHash === undefined) {
            if (state) await options.onIdempotentFailure(state);
          } else {
            await options.onIdempotentResponse(state, proxyRes.statusCode ?? 500, proxyRes.headers, body);
          }
        } catch (err) {
          options.logger.error({ err }, 'the answer to a keyed write was not kept');
        }
        if (res.writableEnded || res.destroyed) return;
        // Sent whole, with its length.
        setAnswerHead(proxyRes, res, clientAskedClose(req) ? 'close' : undefined);
        res.setHeader('content-length', body.length);
        res.end(body);
      })();
    });
  };
}

/** While the breaker is open the service is not asked: a 503 at once, the body discarded. */
function failFast({ name, options, breaker }: UpstreamParts, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!breaker.isOpen()) return handler(req, res, next);
    const state = idempotencyOf(req);
    if (state && !state.settled) void options.onIdempotentFailure(state);
    discardRequestBody(req, DISCARD_LIMIT_BYTES);
    sendProblem(req, res, 'unavailable', `The ${name} service is not answering; retry in a few seconds.`);
  };
}
