import type { IncomingMessage } from 'node:http';
import { requestSlot } from '../request-slot';

/** A keyed body larger than this is not kept for a retry (uploads: the client retries with its key). */
const RETRY_BODY_LIMIT_BYTES = 1024 * 1024;
/** The largest declared body of a write without a key that is kept (JSON bodies; not uploads). */
const UNKEYED_BODY_LIMIT_BYTES = 64 * 1024;

const retried = new WeakSet<IncomingMessage>();
const answered = new WeakSet<IncomingMessage>();
/** The keyed request's body as it passed, or null once it grew past the limit. */
const bodies = requestSlot<Buffer[] | null>('body kept for a retry');

const isSafe = (req: IncomingMessage) => req.method === 'GET' || req.method === 'HEAD';

/**
 * Keeps a keyed request's body while it passes to the service, so that it can be sent again. Called on the
 * paused request before the proxy gets it (as the idempotency hash is), so no chunk passes unseen.
 */
export function keepBodyForRetry(req: IncomingMessage): void {
  const chunks: Buffer[] = [];
  let size = 0;
  bodies.set(req, chunks);
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > RETRY_BODY_LIMIT_BYTES) {
      bodies.set(req, null);
      req.off('data', onData);
    } else chunks.push(chunk);
  };
  req.on('data', onData);
}

/**
 * A write without an Idempotency-Key whose declared body is small enough is kept too: if its copy refuses the
 * connection, the request never reached a process and goes to another copy (ADR 0263). Larger bodies (most
 * uploads) and bodies of unknown length are not kept; they fail with the copy as before.
 */
export function keepSmallBodyForRetry(req: IncomingMessage): void {
  if (isSafe(req)) return;
  const length = Number(req.headers['content-length']);
  if (!Number.isInteger(length) || length > UNKEYED_BODY_LIMIT_BYTES) return;
  // Paused first: a 'data' listener alone would start the flow before the proxy pipes the request on.
  req.pause();
  keepBodyForRetry(req);
}

/** The service sent an answer (its first byte): from here on the request is never sent again. */
export function markAnswered(req: IncomingMessage): void {
  answered.add(req);
}

/**
 * ADR 0202, 0263: whether a failed request goes once more, to another copy. Only when nothing was answered, only
 * once, only where the service cannot have acted twice: a GET or HEAD that failed to connect or was cut before any
 * answer byte; a write only when its connection was refused (it never reached a process, and a write cut after it
 * arrived may have been done) and every chunk of its body read so far is kept (the rest still waits in the request).
 */
export function mayRetry(code: string | undefined, req: IncomingMessage, copies: number): boolean {
  if (copies < 2 || retried.has(req) || answered.has(req)) return false;
  if (code === 'ECONNREFUSED') {
    if (isSafe(req)) return true;
    return req.complete && Array.isArray(bodies.get(req));
  }
  return isSafe(req) && (code === 'ECONNRESET' || code === 'EPIPE');
}

export function markRetried(req: IncomingMessage): void {
  retried.add(req);
}

/** Whether this is the request's second attempt (its body, if any, was read already: `keptBody`). */
export function isRetried(req: IncomingMessage): boolean {
  return retried.has(req);
}

/**
 * On the second attempt, the body the first read (and kept) so far: all of it, or its start where the rest still
 * waits in the request (the refused copy never asked for it).
 */
export function keptBody(req: IncomingMessage): Buffer[] {
  return bodies.get(req) ?? [];
}
