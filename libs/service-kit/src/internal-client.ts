import { Pool, type Dispatcher } from 'undici';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER, type Identity } from '@register/authz';
import { DomainError } from '@register/problem';
import { CORRELATION_HEADER, currentCorrelationId } from './context';

export interface InternalClientOptions {
  baseUrl: string;
  secret: string;
  /** Name of the calling service (the receiver sees it as a ServiceCaller). */
  caller: string;
  timeoutMs?: number;
}

export interface InternalResponse<T> {
  status: number;
  body: T;
}

/**
 * Calls another service's internal API with a freshly signed service identity. A transport failure or a
 * 5xx surfaces as a DomainError('unavailable') so the caller answers 503.
 */
export class InternalClient {
  /**
   * The connections the client keeps (undici's pool: ADR 0277), each dropped after 1.5 s idle: well below the
   * services' keep-alive timeout.
   */
  private readonly pool: Pool;

  constructor(private readonly options: InternalClientOptions) {
    this.pool = new Pool(new URL(options.baseUrl).origin, { keepAliveTimeout: 1500, keepAliveMaxTimeout: 1500 });
  }

  private headers(onBehalfOf: Identity | null, accept: string): Record<string, string> {
    const correlationId = currentCorrelationId();
    const headers: Record<string, string> = {
      [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(this.options.secret, {
        identity: onBehalfOf,
        service: { service: this.options.caller },
        correlationId,
      }),
      accept,
    };
    if (correlationId) headers[CORRELATION_HEADER] = correlationId;
    return headers;
  }

  /**
   * A JSON call. Over undici's pool rather than fetch or node:http (ADR 0275, 0277: the cheapest client here);
   * the timeout covers the whole answer, and a GET whose pooled connection the service had just closed is sent once
   * more on a fresh one. A write is never sent twice.
   */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    onBehalfOf: Identity | null = null,
  ): Promise<InternalResponse<T>> {
    const headers = this.headers(onBehalfOf, 'application/json');
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) headers['content-type'] = 'application/json';
    const answer = await this.answered(method, path, headers, payload, this.options.timeoutMs ?? 5000);
    let text: string;
    try {
      text = (await answer.bytes()).toString('utf8');
    } catch (err) {
      throw unreachable(err);
    }
    return { status: answer.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /**
   * A GET whose answer is not JSON (a document's bytes): the answer with its body unread, for the caller to read
   * (within `timeoutMs`, which covers the body too) or discard. No answer or a 5xx: DomainError('unavailable').
   * A read whose pooled connection the service had just closed is sent once more on a fresh one.
   */
  async open(path: string, options: { timeoutMs?: number } = {}): Promise<OpenedAnswer> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 5000;
    return this.answered('GET', path, this.headers(null, '*/*'), undefined, timeoutMs);
  }

  /** Closes the kept connections. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * The answer of a request once its head arrived. A read reset on a reused connection goes once more; a write never
   * (the service may have done it). No answer or a 5xx: DomainError('unavailable').
   */
  private async answered(
    method: string,
    path: string,
    headers: Record<string, string>,
    payload: Buffer | undefined,
    timeoutMs: number,
  ): Promise<OpenedAnswer> {
    let sent = await this.send(method, path, headers, payload, timeoutMs);
    if (sent.kind === 'failed' && sent.stale && (method === 'GET' || method === 'HEAD'))
      sent = await this.send(method, path, headers, payload, timeoutMs);
    if (sent.kind === 'failed') throw unreachable(sent.err);
    const answer = sent.answer;
    if (answer.status >= 500) {
      answer.discard();
      throw new DomainError('unavailable', `A service this request needs answered ${answer.status}.`);
    }
    return answer;
  }

  /**
   * One request: the answer once its head arrived, or the error that ended it before, `stale` when the service had
   * closed the connection (a reset, or undici's `UND_ERR_SOCKET`, before any answer).
   */
  private async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    payload: Buffer | undefined,
    timeoutMs: number,
  ): Promise<Sent> {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    const url = new URL(path, this.options.baseUrl);
    try {
      const res = await this.pool.request({
        method,
        path: url.pathname + url.search,
        headers,
        body: payload ?? null,
        signal: abort.signal,
      });
      res.body.once('close', () => clearTimeout(timer));
      return { kind: 'answered', answer: openedAnswer(res) };
    } catch (err) {
      clearTimeout(timer);
      const code = (err as { code?: string }).code;
      return { kind: 'failed', err: err as Error, stale: code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' };
    }
  }
}
/** The answer of `open`: its status and headers, and its body to read once or to discard. */
export interface OpenedAnswer {
  status: number;
  /** A header's value (the first, when repeated), or null. */
  header(name: string): string | null;
  /** The body's chunks as they arrive; it throws when the body is cut short or the time runs out. */
  body: AsyncIterable<Buffer>;
  /** The whole body in one buffer; it throws when the body is cut short or the time runs out. */
  bytes(): Promise<Buffer>;
  /** Leaves the body unread (the connection is closed rather than drained). */
  discard(): void;
}

type Sent = { kind: 'answered'; answer: OpenedAnswer } | { kind: 'failed'; err: Error; stale: boolean };

const unreachable = (cause: unknown) =>
  Object.assign(new DomainError('unavailable', 'A service this request needs is unreachable.'), { cause });

function openedAnswer(res: Dispatcher.ResponseData): OpenedAnswer {
  const body = (async function* () {
    for await (const chunk of res.body) yield chunk as Buffer;
  })();
  return {
    status: res.statusCode,
    header: (name) => {
      const value = res.headers[name.toLowerCase()];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
    body,
    async bytes() {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
    discard: () => {
      // Destroyed unread, undici's body reports the abort: nobody is left to hear it.
      res.body.on('error', () => undefined);
      res.body.destroy();
    },
  };
}
