import type { Identity } from '@register/authz';
import { asUser } from '@register/testkit';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Real HTTP with native fetch, as the gateway would call the service (signed identity header). */
export function client(baseUrl: string, identity: Identity | null) {
  async function call<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...asUser(identity) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  }
  return {
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    put: <T = any>(path: string, body?: unknown) => call<T>('PUT', path, body),
    delete: <T = any>(path: string) => call<T>('DELETE', path),
  };
}
export type Client = ReturnType<typeof client>;
