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

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    onBehalfOf: Identity | null = null,
  ): Promise<InternalResponse<T>> {
    const headers = this.headers(onBehalfOf, 'application/json');
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(new URL(path, this.options.baseUrl), {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
    } catch (err) {
      throw Object.assign(new DomainError('unavailable', 'A service this request needs is unreachable.'), {
        cause: err,
      });
    }
    if (res.status >= 500) throw new DomainError('unavailable', `A service this request needs answered ${res.status}.`);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /**
   * A GET whose answer is not JSON (a document's bytes): the answer with its body unread, for the caller to
   * stream (within `timeoutMs`, which covers the body too) or cancel. No answer or a 5xx: DomainError('unavailable').
   */
  async open(path: string, options: { timeoutMs?: number } = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.options.baseUrl), {
        headers: this.headers(null, '*/*'),
        signal: AbortSignal.timeout(options.timeoutMs ?? this.options.timeoutMs ?? 5000),
      });
    } catch (err) {
      throw Object.assign(new DomainError('unavailable', 'A service this request needs is unreachable.'), {
        cause: err,
      });
    }
    if (res.status >= 500) {
      await res.body?.cancel().catch(() => undefined);
      throw new DomainError('unavailable', `A service this request needs answered ${res.status}.`);
    }
    return res;
  }
}
