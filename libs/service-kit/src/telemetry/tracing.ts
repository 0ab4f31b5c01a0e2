import path from 'node:path';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { z } from 'zod';
import { pooledIds } from './trace-context';

/**
 * The tracing settings every service reads here and in the OpenTelemetry SDK (which reads the OTEL_* variables
 * itself); a schema only so that they are documented with the others (`npm run env:update`).
 */
export const telemetrySettingsSchema = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .describe('OTLP/HTTP endpoint for traces; unset: nothing is exported (traceparent still flows and is logged).'),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .optional()
    .describe("Headers on every export, `key=value` comma-separated (the collector's credentials)."),
  OTEL_TRACES_SAMPLER: z.string().optional().meta({
    description: 'The OpenTelemetry sampler, e.g. `parentbased_traceidratio`.',
    defaultText: 'parentbased_always_on',
  }),
  OTEL_TRACES_SAMPLER_ARG: z.string().optional().describe("The sampler's argument, e.g. `0.1` for one trace in ten."),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .meta({ description: 'The name on the spans.', defaultText: "the service's name (gateway, applications, …)" }),
});

let sdk: NodeSDK | null = null;

/**
 * A request that already carries a `traceparent` was given its trace by its sender: the gateway's proxy passes each
 * request on under its own server span (forwarding.ts, ADR 0276). A client span of its own would add a second
 * `traceparent` field, which the service cannot read, and a span per request that repeats the server span.
 */
function carriesTraceparent(request: { headers: unknown }): boolean {
  const headers = request.headers;
  if (!Array.isArray(headers)) return false;
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === 'traceparent') return true;
  return false;
}

/** `services/<name>/dist/src/main.js` → `<name>`: what the trace's spans are named after without OTEL_SERVICE_NAME. */
function serviceName(env: NodeJS.ProcessEnv): string {
  if (env['OTEL_SERVICE_NAME']) return env['OTEL_SERVICE_NAME'];
  const parts = path.resolve(process.argv[1] ?? 'register').split(path.sep);
  const at = parts.lastIndexOf('services');
  return at >= 0 && parts[at + 1] ? parts[at + 1]! : 'register';
}

/**
 * Starts the OpenTelemetry SDK (OTLP/HTTP export, batched) when OTEL_EXPORTER_OTLP_ENDPOINT is set, nothing
 * otherwise. Spans: each request's server span is the kit's own (http.ts `requestScope`: method, route, status),
 * each outbox publish and event handled one (outbox.ts, durable-consumer.ts); the pg and undici instrumentations
 * add a span per query and per outgoing call of undici's (the ZGW mirror; not the gateway's proxied requests, which
 * carry the gateway's own trace context). The http and express
 * instrumentations are not used: patching every socket and middleware layer cost the gateway more than half its
 * throughput, for spans that repeat the server span (ADR 0045). The pg instrumentation patches
 * pg as it is required, so this must run before pg is loaded: the kit's index requires it first, and
 * `node --require @register/service-kit/dist/telemetry/preload` does it before anything else. Idempotent.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  if (sdk || !env['OTEL_EXPORTER_OTLP_ENDPOINT']) return sdk !== null;
  sdk = new NodeSDK({
    serviceName: serviceName(env),
    traceExporter: new OTLPTraceExporter(),
    idGenerator: pooledIds,
    // Metrics are prom-client's (metrics.ts), logs are pino's: the SDK exports traces only.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [new PgInstrumentation(), new UndiciInstrumentation({ ignoreRequestHook: carriesTraceparent })],
  });
  sdk.start();
  return true;
}

/** Flushes and stops the exporter (the service's last closer). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown().catch(() => undefined);
}
