import { identityHeaders, type ConsoleConfig } from './auth.js';

/** The caller lacks the admin role: the page shows the 403 page, never data. */
export class Forbidden extends Error {}
/** Nobody (any longer) signed in. */
export class Unauthenticated extends Error {}

export interface Problem {
  title?: string;
  detail?: string;
  status?: number;
  errors?: Array<{ field: string; detail: string }>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem?.detail ?? problem?.title ?? `status ${status}`);
  }
}

export interface Answer<T> {
  status: number;
  body: T;
  /** The path of the next page (`Link: rel="next"`), when there is one. */
  next: string | null;
}

let config: ConsoleConfig | null = null;
export function useConfig(c: ConsoleConfig): void {
  config = c;
}

/**
 * The route on screen: its reads are cancelled once the operator moves on, so a slow page cannot land on top of
 * the one asked for after it. Writes are never cancelled: the server may already have done them.
 */
let route: AbortSignal | undefined;
export function readsBelongTo(signal: AbortSignal): void {
  route = signal;
}

/** One call to /api/v1 with the operator's own identity. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const identity = config ? identityHeaders(config) : null;
  if (!identity) throw new Unauthenticated();
  const headers: Record<string, string> = { accept: 'application/json', ...identity };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(method === 'GET' && route ? { signal: route } : {}),
  });
  if (res.status === 401) throw new Unauthenticated();
  if (res.status === 403) throw new Forbidden();
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as unknown) : null;
  if (res.status >= 400) throw new ApiError(res.status, parsed as Problem | null);
  const link = res.headers.get('link');
  const next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  return { status: res.status, body: parsed as T, next };
}

/** The operator's capabilities (GET /api/v1/me); a page checks its own before it asks for data. */
export async function capabilities(): Promise<string[]> {
  return (await api<{ capabilities: string[] | null }>('GET', '/api/v1/me')).body.capabilities ?? [];
}

export async function requireCapability(capability: string): Promise<void> {
  if (!(await capabilities()).includes(capability)) throw new Forbidden();
}
