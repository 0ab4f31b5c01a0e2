import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { SpanKind, inActiveSpan, traceHeaders } from '@register/service-kit';
import type { ZgwActor, ZgwAnswer, ZgwPort } from '../case-mirror/zgw';

export interface ZgwClientOptions {
  /** The JWT's `iss` and `client_id` (ZGW_CLIENT_ID). */
  clientId: string;
  /** The HS256 secret Open Zaak holds for this client (ZGW_SECRET). */
  secret: string;
  /** The Zaken API root: its calls carry the CRS headers. */
  zakenUrl: string;
  timeoutMs: number;
  /** Connections kept open per host (keep-alive); at least the mirror's concurrency. */
  maxSockets?: number;
}

/** What went wrong without an answer, for the log and `last_error`: the error's name and its code. */
function transportDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  return `${err.name}: ${code ?? err.message}`.slice(0, 300);
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The kind of resource a URL names (`zaken`, `statussen` …), for the span's name: its last segment that is not an id.
 */
function resourceOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  const segments = path.split('/').filter((s) => s !== '' && !/^[0-9a-f-]{36}$/i.test(s));
  return segments.at(-1) ?? '';
}

/**
 * A reset or broken pipe on a connection the pool had used before (the server may have closed it as the request went
 * out).
 */
function staleReset(req: http.ClientRequest | undefined, err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return Boolean(req?.reusedSocket) && (code === 'ECONNRESET' || code === 'EPIPE');
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError', code: 'ETIMEDOUT' });
}

/** Below every common server's keep-alive timeout (gunicorn 2 s, Node 5 s, nginx 75 s). */
const IDLE_CONNECTION_MS = 1500;

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const JWT_HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/**
 * The ZGW APIs over node:http(s) with keep-alive agents (ADR 0086): a JWT minted for
 * every call (Open Zaak's leeway is 0, so `iat` is now in whole seconds), `Accept-Crs`/`Content-Crs:
 * EPSG:4326` on the Zaken API, and ZGW_TIMEOUT_MS per call, body included. A failure without an HTTP
 * answer, also one that cuts the body, is `transport`. node:http rather than fetch: under the mirror's
 * load fetch's streams cost about twice the CPU per call; HS256 is signed with node:crypto for the same reason.
 */
export class ZgwClient implements ZgwPort {
  private readonly zakenPrefix: string;
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };
  private readonly key: KeyObject;
  /** The tokens signed in the second `tokensOf` (iat), by actor: at most one per actor, emptied each second. */
  private readonly tokens = new Map<string, string>();
  private tokensOf = 0;

  constructor(private readonly options: ZgwClientOptions) {
    this.zakenPrefix = `${options.zakenUrl.replace(/\/+$/, '')}/`;
    this.key = createSecretKey(Buffer.from(options.secret, 'utf8'));
    const maxSockets = options.maxSockets ?? 64;
    // An idle pooled connection is dropped after IDLE_CONNECTION_MS, before the case system closes it: reusing one
    // it closed as the request went out fails without an answer, and would use up one of the mirror's three attempts.
    const pool = { keepAlive: true, maxSockets, timeout: IDLE_CONNECTION_MS };
    this.agents = { 'http:': new http.Agent(pool), 'https:': new https.Agent(pool) };
  }

  /**
   * An HS256 JWT (ADR 0011): `iss` = `client_id`, `iat` now, the actor as `user_id`/`user_representation`. `iat` is
   * in whole seconds, so within a second an actor's token is the same: it is signed once per actor and second.
   */
  token(actor: ZgwActor): string {
    const iat = Math.floor(Date.now() / 1000);
    if (iat !== this.tokensOf) {
      this.tokens.clear();
      this.tokensOf = iat;
    }
    const key = `${actor.userId}\n${actor.representation}`;
    let token = this.tokens.get(key);
    if (token === undefined) {
      token = this.sign(actor, iat);
      this.tokens.set(key, token);
    }
    return token;
  }

  private sign(actor: ZgwActor, iat: number): string {
    const claims = {
      client_id: this.options.clientId,
      user_id: actor.userId,
      user_representation: actor.representation,
      iss: this.options.clientId,
      iat,
    };
    const signingInput = `${JWT_HEADER}.${base64url(JSON.stringify(claims))}`;
    return `${signingInput}.${createHmac('sha256', this.key).update(signingInput).digest('base64url')}`;
  }

  /** One call in a client span of its own, under the case's trace (W3C `traceparent` sent along, issue 14). */
  call(method: 'GET' | 'POST' | 'DELETE', url: string, actor: ZgwActor, body?: unknown): Promise<ZgwAnswer> {
    return inActiveSpan(`ZGW ${method} ${resourceOf(url)}`, SpanKind.CLIENT, () => this.send(method, url, actor, body));
  }

  /**
   * A read whose pooled connection the server had closed just as it went out (a reset on a reused socket, the
   * race Node's docs describe under `request.reusedSocket`) is sent once more on a fresh one: a GET changes
   * nothing, so the caller sees the answer instead of a transport failure. Writes are never resent here; the
   * mirror's own attempts and lookups decide about those.
   */
  private async send(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    actor: ZgwActor,
    body?: unknown,
  ): Promise<ZgwAnswer> {
    let answer = await this.once(method, url, actor, body);
    if (method === 'GET' && answer.kind === 'transport' && answer.staleConnection)
      answer = await this.once(method, url, actor, body);
    return answer.kind === 'transport' ? { kind: 'transport', detail: answer.detail } : answer;
  }

  /** Bearer token, JSON, the trace, and the coordinate system the Zaken API insists on. */
  private requestHeaders(url: string, actor: ZgwActor, payload: Buffer | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token(actor)}`,
      Accept: 'application/json',
      ...traceHeaders(),
    };
    if (payload) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    if (url.startsWith(this.zakenPrefix)) {
      headers['Accept-Crs'] = 'EPSG:4326';
      headers['Content-Crs'] = 'EPSG:4326';
    }
    return headers;
  }

  private once(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    actor: ZgwActor,
    body?: unknown,
  ): Promise<ZgwAnswer & { staleConnection?: boolean }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = this.requestHeaders(url, actor, payload);
    let target: URL;
    try {
      target = new URL(url);
    } catch (err) {
      return Promise.resolve({ kind: 'transport', detail: transportDetail(err) });
    }
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: ZgwAnswer & { staleConnection?: boolean }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const fail = (err: unknown) =>
        settle({ kind: 'transport', detail: transportDetail(err), staleConnection: staleReset(req, err) });
      const client = target.protocol === 'https:' ? https : http;
      const agent = target.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
      const timer = setTimeout(() => req.destroy(timeoutError(this.options.timeoutMs)), this.options.timeoutMs);
      let req: http.ClientRequest;
      try {
        req = client.request(target, { method, headers, agent }, onAnswer);
      } catch (err) {
        fail(err);
        return;
      }
      req.on('error', fail);
      req.end(payload);
      function onAnswer(res: http.IncomingMessage): void {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          if (!res.complete) return fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
          settle({
            kind: 'http',
            status: res.statusCode ?? 0,
            body: parseJson(Buffer.concat(chunks).toString('utf8')),
          });
        });
      }
    });
  }
}
