import { EventEmitter } from 'node:events';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import type { RequestHandler, Request, Response } from 'express';
import { Pool, type Dispatcher } from 'undici';
import { sendProblem } from '@register/problem';
import { discardRequestBody, type Logger } from '@register/service-kit';
import { hashWhileStreaming, idempotencyOf, type IdempotencyState } from '../idempotency/idempotency.middleware';
import { Breaker } from '../proxy/breaker';
import { Replicas } from '../proxy/replicas';
import {
  isRetried,
  keepBodyForRetry,
  keepSmallBodyForRetry,
  keptBody,
  markAnswered,
  markRetried,
  mayRetry,
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
  breaker: Breaker;
  /** Connections to the service's copies that carry a request now. */
  busyConnections(): number;
  /** Closes every connection to the service. */
  close(): Promise<void>;
}

/** A copy of a service, its address parsed once: its connections, and the Host and path prefix a request gets. */
interface Target {
  /** The keep-alive connections to this copy. */
  pool: Pool;
  /** The Host field the service gets (the gateway names the service, as a proxy that changes the origin does). */
  host: string;
  /** The URL's path, put before the request's path ('' for the root). */
  path: string;
}

function targetOf(url: string, options: UpstreamOptions): Target {
  const u = new URL(url);
  return {
    pool: new Pool(u.origin, {
      connections: options.maxSocketsPerService,
      pipelining: 1,
      // An idle connection is closed after 30 s, below the services' keepAliveTimeout (65 s), so a reused one is
      // never one the service just closed.
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 30_000,
      connect: { timeout: options.proxyTimeoutMs },
    }),
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

/** A service's answer fields as undici gives them: lower-case names, a list where a field came more than once. */
type AnswerHeaders = Record<string, string | string[] | undefined>;

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
function namedByConnection(headers: AnswerHeaders): string[] | null {
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
 * The client's request body as undici reads it. undici destroys the body it was given once the exchange is over (or
 * failed); destroying the client's request would cut the client's connection, where the gateway keeps it for the
 * answer and for the next request (`Exchange.clientClosed`). So undici gets this stand-in: the request's chunks,
 * its end and its error passed on, pause and resume passed back, and a destroy that only lets go of the request.
 */
class BodyFeed extends EventEmitter {
  destroyed = false;

  constructor(
    private readonly req: http.IncomingMessage,
    /** Chunks read before (by an attempt on a copy that refused the connection): sent first. */
    private start: Buffer[],
  ) {
    super();
    // Held until undici starts reading (once a connection is free): a chunk before that would pass unread.
    req.pause();
    req.on('data', this.onData);
    req.on('end', this.onEnd);
    req.on('error', this.onError);
  }

  private readonly onData = (chunk: Buffer) => this.emit('data', chunk);
  private readonly onEnd = () => this.emit('end');
  private readonly onError = (err: Error) => this.emit('error', err);

  get readableEnded(): boolean {
    return this.req.readableEnded;
  }

  get errored(): Error | null {
    return this.req.errored;
  }

  /** What makes undici take this for a stream; it never pipes one. */
  pipe(): never {
    throw new Error('a request body is not piped');
  }

  pause(): this {
    this.req.pause();
    return this;
  }

  resume(): this {
    if (this.destroyed) return this;
    if (this.start.length > 0) {
      const start = this.start;
      this.start = [];
      for (const chunk of start) this.emit('data', chunk);
    }
    this.req.resume();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.req.off('error', this.onError);
    return this;
  }
}

/** Whether the request carries a body (its length declared and not 0, or sent in chunks). */
function hasBody(headers: http.IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/** An error's code, the services' resets as `ECONNRESET` whichever layer noticed them. */
function codeOf(err: Error): string | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : code;
}

/** The gateway's own limits: no connection, no answer or no answer byte within them. Only these open the breaker. */
const TIMED_OUT: ReadonlySet<string | undefined> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** What the handlers of one service's proxy share: its copies, each with its connections, and its breaker. */
interface UpstreamParts {
  name: UpstreamName;
  options: UpstreamOptions;
  replicas: Replicas;
  /** Each copy by its URL. */
  targets: Map<string, Target>;
  breaker: Breaker;
  /** A failed exchange: retried once on another copy where that is safe, else a 503 (or a cut response). */
  onError: (err: Error, req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export function createUpstreams(options: UpstreamOptions): Record<UpstreamName, Upstream> {
  const names = Object.keys(options.targets) as UpstreamName[];
  return Object.fromEntries(names.map((name) => [name, upstreamOf(name, options)])) as Record<UpstreamName, Upstream>;
}

/** One service's proxy: streaming and idempotent handlers behind its breaker, over keep-alive pools of its copies. */
function upstreamOf(name: UpstreamName, options: UpstreamOptions): Upstream {
  const target = options.targets[name];
  const replicas = new Replicas(typeof target === 'string' ? [target] : target);
  const breaker = new Breaker(name, replicas.urls[0]!, options.logger);
  const targets = new Map(replicas.urls.map((url) => [url, targetOf(url, options)]));
  // A retried request goes through the proxy it came from; both are built below.
  const proxies: { stream?: RequestHandler; idempotent?: RequestHandler } = {};
  const parts: UpstreamParts = {
    name,
    options,
    replicas,
    targets,
    breaker,
    onError: (err, req, res) =>
      proxyError(parts, err, req, res, idempotencyOf(req) ? proxies.idempotent! : proxies.stream!),
  };
  const stream = pipe(parts, false);
  const idempotentProxy = pipe(parts, true);
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
    breaker,
    busyConnections: () => {
      let busy = 0;
      for (const { pool } of targets.values()) busy += pool.stats.connected - pool.stats.free;
      return busy;
    },
    close: async () => {
      await Promise.all([...targets.values()].map(({ pool }) => pool.destroy()));
    },
  };
}

/** A failed exchange: retried once on another copy where that is safe, else a 503 (or a cut response). */
function proxyError(
  { name, options, replicas, breaker }: UpstreamParts,
  err: Error,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  retryThrough: RequestHandler,
): void {
  const state = idempotencyOf(req);
  const code = codeOf(err);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET') replicas.refused(req);
  const response = res as Response;
  if (!response.headersSent && mayRetry(code, req, replicas.urls.length)) {
    options.logger.info({ err: { message: err.message, code }, upstream: name }, 'upstream failed; retried');
    markRetried(req);
    return void retryThrough(req as Request, response, () => undefined);
  }
  options.logger.warn({ err: { message: err.message, code }, upstream: name }, 'upstream failed');
  // Only the gateway's own limits open the breaker: a reset or a refusal is quick to answer anyway.
  if (TIMED_OUT.has(code)) breaker.tripped();
  if (state && !state.settled) void options.onIdempotentFailure(state);
  if (!response.headersSent)
    sendProblem(req as Request, response, 'unavailable', `The ${name} service is unavailable.`);
  else response.destroy();
}

/**
 * One request's exchange with a copy of the service, as undici's dispatch handler: the answer's head and body
 * written to the client as they come (with the client's backpressure passed back), or, for a write with an
 * Idempotency-Key, read whole, kept, then sent.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  /** Set once the service's answer began: from then on the request is never sent again. */
  private answered = false;
  /** The gateway ended the exchange itself (the client left, or its body came too slowly). */
  private cancelled = false;
  private status = 0;
  private statusText = '';
  private headers: AnswerHeaders = {};
  /** The kept answer of a keyed write (null when the answer streams through). */
  private readonly chunks: Buffer[] | null;
  /** The request body as undici reads it, where the request has one. */
  feed: BodyFeed | null = null;

  constructor(
    private readonly parts: UpstreamParts,
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    keep: boolean,
  ) {
    this.chunks = keep ? [] : null;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: AnswerHeaders,
    statusMessage?: string,
  ): void {
    // Any answer, even a 5xx, shows the service is alive.
    this.answered = true;
    markAnswered(this.req);
    this.parts.breaker.close();
    if (this.chunks) {
      this.status = statusCode;
      this.statusText = statusMessage ?? '';
      this.headers = headers;
      return;
    }
    const { req, res } = this;
    if (res.writableEnded || res.headersSent) return;
    // An HTTP/1.0 client's connection closes after the answer, as does one whose client asked it to.
    const connection = req.httpVersion === '1.0' || clientAskedClose(req) ? 'close' : 'keep-alive';
    setAnswerHead(res, statusCode, statusMessage, headers, connection);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks) return void this.chunks.push(chunk);
    if (this.res.writableEnded) return;
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    if (this.chunks) return void this.keepAndSend(this.chunks);
    if (!this.res.writableEnded) this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    const { req, res, parts } = this;
    const state = idempotencyOf(req);
    if (this.cancelled || isSlowBody(req)) {
      if (state && !state.settled) void parts.options.onIdempotentFailure(state);
      return;
    }
    // The client went away: nothing to answer.
    if (req.socket.destroyed && codeOf(err) === 'ECONNRESET') return;
    // The service cut its answer short: the client sees a cut connection at once.
    if (this.answered) return void res.destroy();
    // A second attempt reads the body on its own.
    this.feed?.destroy();
    parts.onError(err, req, res);
  }

  /** Ends the exchange from the gateway's side; its failure is then no one's to answer. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller?.abort(new Error('the gateway ended the exchange'));
  }

  /**
   * The client's connection closed, or its answer is done. Before the whole answer: the client left, stop reading
   * the service's. While the client is still sending: the rest of its body has no reader; the service's connection
   * is dropped (never reused half-written), and what the client still sends is discarded (up to a bound), so a
   * keep-alive connection stays usable and the client reads the answer instead of a reset.
   */
  readonly clientClosed = (): void => {
    const { req, res } = this;
    if (!res.writableEnded) this.cancel();
    if (req.complete) return;
    this.feed?.destroy();
    this.cancel();
    discardRequestBody(req, DISCARD_LIMIT_BYTES);
  };

  /** The answer to a keyed write: kept (or its failure noted), then sent whole with its length. */
  private keepAndSend(chunks: Buffer[]): void {
    const { req, res, parts } = this;
    void (async () => {
      const body = Buffer.concat(chunks);
      const state = idempotencyOf(req);
      try {
        if (state?.requestHash === undefined) {
          if (state) await parts.options.onIdempotentFailure(state);
        } else {
          const headers = this.headers as http.IncomingHttpHeaders;
          await parts.options.onIdempotentResponse(state, this.status, headers, body);
        }
      } catch (err) {
        parts.options.logger.error({ err }, 'the answer to a keyed write was not kept');
      }
      if (res.writableEnded || res.destroyed) return;
      setAnswerHead(res, this.status, this.statusText, this.headers, clientAskedClose(req) ? 'close' : undefined);
      res.setHeader('content-length', body.length);
      res.end(body);
    })();
  }
}

/**
 * The proxy core (ADR 0271, 0276): the request dispatched to a copy of the service over undici's keep-alive pool,
 * the answer written back as it comes. A body streams from the client's request (a retry sends the kept one).
 * No byte from the service for the idle limit after the body went (or while the service stopped reading it): the
 * service is stuck, not slow; while the body is still being sent and the service reads it, the wait is the
 * client's (slow-body.middleware.ts).
 */
function pipe(parts: UpstreamParts, keep: boolean): RequestHandler {
  const streamIdle = parts.options.streamIdleTimeoutMs ?? 30_000;
  return (req, res) => {
    const target = parts.targets.get(parts.replicas.pick(req))!;
    // The request's fields are the gateway's own object (proxy/forwarding.ts), made for this request: the copy's
    // Host goes in it, not in another copy of them all; undici frames the body itself.
    const headers = req.headers;
    headers.host = target.host;
    const withBody = hasBody(headers);
    if (headers['transfer-encoding'] !== undefined) headers['transfer-encoding'] = undefined;
    const exchange = new Exchange(parts, req, res, keep);
    let body: Buffer | BodyFeed | null = null;
    if (withBody) {
      // A second attempt sends what the first read of the body, then the rest as it comes.
      const kept = isRetried(req) ? keptBody(req) : [];
      body = req.readableEnded ? Buffer.concat(kept) : (exchange.feed = new BodyFeed(req, kept));
    } else if (keep) {
      // A keyed write without a body (a DELETE): its empty body read to its end, where its hash is taken.
      req.resume();
    }
    const idle = isStreamingRoute(req) ? streamIdle : parts.options.proxyTimeoutMs;
    onSlowBody(req, () => exchange.cancel());
    res.once('close', exchange.clientClosed);
    // A write to a response the client already cut: nothing more is written; no crash for an unheard error.
    res.on('error', ignore);
    target.pool.dispatch(
      {
        method: req.method,
        path: pathOf(target, req.url),
        headers,
        // undici takes it for a stream by its pipe and on (BodyFeed); its types ask for a Readable.
        body: body as Buffer | Readable | null,
        headersTimeout: idle,
        bodyTimeout: idle,
      },
      exchange,
    );
  };
}

const ignore = (): void => undefined;

/**
 * The service's status and fields on the client's response. The hop-by-hop fields (RFC 9110 §7.6.1: those of
 * `HOP_BY_HOP` and those its Connection field names) are skipped. `connection` is the gateway's own Connection field.
 */
function setAnswerHead(
  res: http.ServerResponse,
  status: number,
  statusMessage: string | undefined,
  headers: AnswerHeaders,
  connection?: string,
): void {
  res.statusCode = status;
  if (statusMessage) res.statusMessage = statusMessage;
  const named = namedByConnection(headers);
  for (const key in headers) {
    if (HOP_BY_HOP.has(key) || named?.includes(key)) continue;
    const value = headers[key];
    if (value !== undefined) res.setHeader(key, value);
  }
  if (connection !== undefined) res.setHeader('connection', connection);
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
