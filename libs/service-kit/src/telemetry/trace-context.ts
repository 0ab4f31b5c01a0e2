import { randomFillSync } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export { SpanKind, SpanStatusCode };
export type { Span };

/**
 * W3C Trace Context through requests, the outbox and events, with or without the OpenTelemetry SDK. Without
 * it (no OTLP endpoint) the API is a no-op; a context manager and the W3C propagator of our own keep one trace
 * id from the gateway through every service and event into the log lines. With it, the SDK registers its own
 * first (see tracing.ts) and these registrations are refused, which is what we want.
 */
export function installTraceContext(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** Got once: a proxy that finds the SDK's tracer once the SDK is registered (a lookup per request cost time). */
const tracer = trace.getTracer('@register/service-kit');
/**
 * Requests, the outbox and events carry W3C Trace Context only, read and written by this propagator directly
 * (the SDK's composite one also carries a client's `baggage` on, which no service reads).
 */
const w3c = new W3CTraceContextPropagator();

/** Random bytes drawn a page at a time: a trace or span id on every request without a call into OpenSSL each. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
export function newId(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += bytes;
  return pool.toString('hex', poolAt - bytes, poolAt);
}

/** The SDK's ids from the same pool (its own generator writes each id into a buffer of its own). */
export const pooledIds = { generateTraceId: (): string => newId(16), generateSpanId: (): string => newId(8) };

/**
 * A span of our own under `parent`: the SDK's when it records, otherwise a non-recording one with a fresh
 * span id under the parent's trace (a fresh trace when there is none), so every hop has its own id.
 */
function startSpan(name: string, kind: SpanKind, parent: Context): Span {
  const span = tracer.startSpan(name, { kind }, parent);
  if (span.isRecording()) return span;
  const from = trace.getSpanContext(parent);
  return trace.wrapSpanContext({
    traceId: from?.traceId ?? newId(16),
    spanId: newId(8),
    traceFlags: from?.traceFlags ?? TraceFlags.SAMPLED,
  });
}

/** Runs `fn` in a span of its own under `parent`, ended when `fn` settles. */
export async function inSpan<T>(name: string, kind: SpanKind, parent: Context, fn: () => Promise<T>): Promise<T> {
  const span = startSpan(name, kind, parent);
  try {
    return await context.with(trace.setSpan(parent, span), fn);
  } finally {
    span.end();
  }
}

/** Runs `fn` in a span of its own under the active one (an outgoing call's client span, say). */
export function inActiveSpan<T>(name: string, kind: SpanKind, fn: () => Promise<T>): Promise<T> {
  return inSpan(name, kind, context.active(), fn);
}

/**
 * The server span of an incoming request: it continues the caller's trace (its `traceparent`) or starts one.
 * Recorded and exported when the SDK runs (tracing.ts), otherwise only propagated. The caller ends it.
 */
export function startRequestSpan(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): { span: Span; context: Context } {
  const parent = w3c.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  const span = startSpan(name, SpanKind.SERVER, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` as the active trace context. */
export function withTraceContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** The context a stored or received `traceparent` (and `tracestate`) names; the root context without one. */
export function traceContextOf(traceparent: unknown, tracestate?: unknown): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent };
  if (typeof tracestate === 'string') carrier['tracestate'] = tracestate;
  return w3c.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/** `traceparent` (and `tracestate`) of the active span, for a request or a message to another service. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  w3c.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier;
}

/** The active span's `traceparent`, or undefined outside any trace. */
export function currentTraceparent(): string | undefined {
  return traceHeaders()['traceparent'];
}

/** The active trace id (for log lines), or undefined outside any trace. */
export function currentTraceId(): string | undefined {
  return trace.getSpanContext(context.active())?.traceId;
}

/** The active span's trace and span id, or undefined outside any trace. */
export function activeSpanIds(): { traceId: string; spanId: string } | undefined {
  const ctx = trace.getSpanContext(context.active());
  return ctx && trace.isSpanContextValid(ctx) ? { traceId: ctx.traceId, spanId: ctx.spanId } : undefined;
}
