import type { Request, Response } from 'express';

/** What a portal sends besides the simple headers: the bearer token, the identity stand-in, the write headers. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Correlation-Id',
  'X-Step-Up',
  'X-Subject',
  'X-Role',
  'X-Medewerker',
  'X-Rollen',
  'X-Admin',
].join(', ');
const EXPOSED_HEADERS = [
  'X-Correlation-Id',
  'API-Version',
  'Link',
  'Location',
  'ETag',
  'Idempotent-Replayed',
  'Content-Disposition',
  'WWW-Authenticate',
].join(', ');
const METHODS = 'GET, POST, PUT, DELETE';

/** `CORS_ORIGINS`: comma-separated origins (`https://portal.example.nl`), default none. */
export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
    .map((o) => new URL(o).origin);
}

/**
 * ADR 0015: the configured origins may call /api/v1. Every preflight is answered here, before identity is resolved
 * (a preflight carries no credentials): a configured origin's with its CORS headers, another origin's without
 * them, so its browser refuses the call and no identity is asked of it. An actual request from another origin gets
 * no CORS headers and goes on as any other. Returns true when it answered the request.
 */
export function applyCors(origins: ReadonlySet<string>, req: Request, res: Response): boolean {
  const origin = req.headers.origin;
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const allowed = typeof origin === 'string' && origins.has(origin);
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.vary('Origin');
  }
  if (preflight) {
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    req.resume();
    res.status(204).end();
    return true;
  }
  if (allowed) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  return false;
}
