import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';

/** A JSON body serialised once, with its ETag made once: sending it again encodes and hashes nothing. */
export interface CachedBody {
  json: Buffer;
  etag: string;
}

/**
 * How the ETag is made. `strong`: a SHA-256 prefix (stamdata, ADR 0015). `weak`: the one Express's default
 * `etag fn` makes of a body (length in hex and a SHA-1 prefix), so a body sent this way carries the ETag
 * `res.json` would have given it.
 */
export type EtagKind = 'strong' | 'weak';

function etagOf(json: Buffer, kind: EtagKind): string {
  if (kind === 'strong') return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  return `W/"${json.length.toString(16)}-${createHash('sha1').update(json).digest('base64').slice(0, 27)}"`;
}

/** `value` serialised once, with its ETag. */
export function cachedJson(value: unknown, etag: EtagKind = 'strong'): CachedBody {
  return cachedJsonText(JSON.stringify(value), etag);
}

/** A body that is JSON text already (assembled from parts serialised earlier), with its ETag. */
export function cachedJsonText(text: string, etag: EtagKind = 'strong'): CachedBody {
  const json = Buffer.from(text);
  return { json, etag: etagOf(json, etag) };
}

/** Whether the client's If-None-Match names this ETag (a list, or `*`), compared weakly as RFC 9110 asks. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const own = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === own;
  });
}

/**
 * Sends a body serialised once, 200 with its ETag; a GET or HEAD whose If-None-Match names it gets 304 without a
 * body (other methods ignore it, as `res.json` does). Only If-None-Match is looked at: a request's own
 * `Cache-Control: no-cache` does not turn an explicit conditional request into a full one (ADR 0240).
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
  const conditional = req.method === 'GET' || req.method === 'HEAD';
  if (conditional && matches(req.headers['if-none-match'], body.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/json').end(body.json);
}
