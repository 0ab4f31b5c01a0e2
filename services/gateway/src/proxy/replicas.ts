import type { IncomingMessage } from 'node:http';
import { requestSlot } from '../request-slot';
import { z } from 'zod';

/**
 * A service's URL, or the URLs of its copies comma-separated (`APPLICATIONS_URL=http://a1,http://a2`): the
 * gateway spreads requests over them. Parsed to the list; one URL is a list of one.
 */
export const upstreamUrls = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== ''),
    )
    .pipe(z.array(z.url()).min(1, 'one URL or more, comma-separated'));

/** How long a copy that refused a connection is passed over before it gets requests again. */
const SKIP_REFUSED_MS = 2000;

/**
 * Round robin over a service's copies. A copy that refuses connections (stopped, crashed, restarting) is
 * passed over for a moment, so a copy going away costs a few requests, not every other one; when every copy
 * refused, they are all tried again.
 */
export class Replicas {
  private turn = 0;
  private readonly refusedUntil = new Map<string, number>();
  private readonly chosen = requestSlot<string>('copy chosen');

  constructor(readonly urls: readonly string[]) {}

  /** The copy for this request (remembered, so that a failure is charged to it); a retry gets another one. */
  pick(req: IncomingMessage): string {
    const now = Date.now();
    const before = this.chosen.get(req);
    for (let tried = 0; tried < this.urls.length; tried++) {
      const url = this.urls[this.turn++ % this.urls.length]!;
      if ((this.refusedUntil.get(url) ?? 0) <= now && url !== before) {
        this.chosen.set(req, url);
        return url;
      }
    }
    this.refusedUntil.clear();
    let url = this.urls[this.turn++ % this.urls.length]!;
    if (url === before) url = this.urls[this.turn++ % this.urls.length]!;
    this.chosen.set(req, url);
    return url;
  }

  /** The request's copy refused the connection (or reset it before answering). */
  refused(req: IncomingMessage): void {
    const url = this.chosen.get(req);
    if (url && this.urls.length > 1) this.refusedUntil.set(url, Date.now() + SKIP_REFUSED_MS);
  }
}
