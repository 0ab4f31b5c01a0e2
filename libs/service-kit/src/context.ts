import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const CORRELATION_HEADER = 'x-correlation-id';
const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** ADR 0003: keep a well-formed incoming id, otherwise make a new UUID. */
export function acceptCorrelationId(value: unknown): string {
  return typeof value === 'string' && CORRELATION_PATTERN.test(value) ? value : randomUUID();
}

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentCorrelationId(): string | null {
  return storage.getStore()?.correlationId ?? null;
}
