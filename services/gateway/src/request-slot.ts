import type { IncomingMessage } from 'node:http';

/** One value that a part of the proxy keeps for one request, for as long as that request lives. */
export interface RequestSlot<T> {
  get(req: IncomingMessage): T | undefined;
  set(req: IncomingMessage, value: T): void;
}

/**
 * A slot is a property on the request under a symbol of its own, not a WeakMap keyed by the request: V8's minor
 * collections kept a WeakMap's function values (and all they reach: the request, its socket, the proxy's request)
 * alive, so every request went to old space and stayed there until the next major collection, a long pause
 * (ADR 0265).
 */
export function requestSlot<T>(description: string): RequestSlot<T> {
  const key = Symbol(description);
  const slots = (req: IncomingMessage) => req as unknown as Record<symbol, T | undefined>;
  return {
    get: (req) => slots(req)[key],
    set: (req, value) => {
      slots(req)[key] = value;
    },
  };
}
