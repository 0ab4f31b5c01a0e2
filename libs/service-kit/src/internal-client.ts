import http from 'node:http';
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
  /** The connections the client keeps, each dropped after 1.5 s idle: well below the services' keep-alive timeout. */
  private readonly agent = new http.Agent({ keepAlive: true, timeout: 1500 });

  constructor(private readonly options: InternalClientOptions) {}

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
   * A JSON call. Over node:http with the keep-alive agent `open` uses rather than fetch (ADR 0275: fetch cost the
   * applications service a good part of a submit's CPU); the timeout covers the whole answer, and a GET whose pooled
   * connection the service had just closed is sent once more on a fresh one. A write is never sent twice.
   */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    onBehalfOf: Identity | null = null,
  ): Promise<InternalResponse<T>> {
    const url = new URL(path, this.options.baseUrl);
    const headers = this.headers(onBehalfOf, 'application/json');
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const answer = await this.answered(method, url, headers, payload, this.options.timeoutMs ?? 5000);
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
   * Over node:http with a keep-alive agent rather than fetch: about half the CPU per call (ADR 0273); a read whose
   * pooled connection the service had just closed is sent once more on a fresh one.
   */
  async open(path: string, options: { timeoutMs?: number } = {}): Promise<OpenedAnswer> {
    const url = new URL(path, this.options.baseUrl);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 5000;
    return this.answered('GET', url, this.headers(null, '*/*'), undefined, timeoutMs);
  }

  /**
   * The answer of a request once its head arrived. A read reset on a reused connection goes once more; a write never
   * (the service may have done it). No answer or a 5xx: DomainError('unavailable').
   */
  private async answered(
    method: string,
    url: URL,
    headers: Record<string, string>,
    payload: Buffer | undefined,
    timeoutMs: number,
  ): Promise<OpenedAnswer> {
    let sent = await this.send(method, url, headers, payload, timeoutMs);
    if (sent.kind === 'failed' && sent.stale && (method === 'GET' || method === 'HEAD'))
      sent = await this.send(method, url, headers, payload, timeoutMs);
    if (sent.kind === 'failed') throw unreachable(sent.err);
    const answer = sent.answer;
    if (answer.status >= 500) {
      answer.discard();
      throw new DomainError('unavailable', `A service this request needs answered ${answer.status}.`);
    }
    return answer;
  }

  /**
   * One request: the answer once its head arrived, or the error that ended it before, `stale` when it was a reset on
   * a reused connection (the race Node's docs describe under `request.reusedSocket`).
   */
  private send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    payload: Buffer | undefined,
    timeoutMs: number,
  ): Promise<Sent> {
    return new Promise((resolve) => {
      const req = http.request(url, { method, headers, agent: this.agent });
      const timer = setTimeout(
        () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
        timeoutMs,
      );
      req.on('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        resolve({
          kind: 'failed',
          err,
          stale: req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE'),
        });
      });
      req.on('response', (res) => {
        res.once('close', () => clearTimeout(timer));
        resolve({ kind: 'answered', answer: openedAnswer(res) });
      });
      req.end(payload);
    });
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

const cutShort = () => Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' });

function openedAnswer(res: http.IncomingMessage): OpenedAnswer {
  const body = (async function* () {
    for await (const chunk of res) yield chunk as Buffer;
    if (!res.complete) throw cutShort();
  })();
  return {
    status: res.statusCode ?? 0,
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
    discard: () => res.destroy(),
  };
}
