import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';

/** A JSON body serialised once, with its strong ETag. */
export interface CachedBody {
  json: Buffer;
  etag: string;
}

export function cachedJson(value: unknown): CachedBody {
  const json = Buffer.from(JSON.stringify(value));
  return { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}

/** Whether the client's If-None-Match names this ETag (a list, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * Sends a snapshot body with its strong ETag; 304 without a body when the client has it already.
 * ADR 0015: stamdata may be cached privately and revalidated; everything else stays `no-store`.
 */
export function sendCached(
  req: Request,
  res: Response,
  body: CachedBody,
  cacheControl: 'revalidate' | 'no-store',
): void {
  res.setHeader('ETag', body.etag);
  res.setHeader('Cache-Control', cacheControl === 'revalidate' ? 'private, no-cache' : 'no-store');
  if (matches(req.headers['if-none-match'], body.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/json').end(body.json);
}
