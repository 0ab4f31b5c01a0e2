import path from 'node:path';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | null = null;

/** `services/<name>/dist/src/main.js` → `<name>`: what the trace's spans are named after without OTEL_SERVICE_NAME. */
function serviceName(env: NodeJS.ProcessEnv): string {
  if (env['OTEL_SERVICE_NAME']) return env['OTEL_SERVICE_NAME'];
  const parts = path.resolve(process.argv[1] ?? 'register').split(path.sep);
  const at = parts.lastIndexOf('services');
  return at >= 0 && parts[at + 1] ? parts[at + 1]! : 'register';
}

/**
 * Starts the OpenTelemetry SDK (http, express, pg and undici instrumentation; OTLP/HTTP export, batched) when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, nothing otherwise. The instrumentations patch modules as they are
 * required, so this must run before express and pg are loaded: the kit's index requires it first, and
 * `node --require @register/service-kit/dist/telemetry/preload` does it before anything else. Idempotent.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  if (sdk || !env['OTEL_EXPORTER_OTLP_ENDPOINT']) return sdk !== null;
  sdk = new NodeSDK({
    serviceName: serviceName(env),
    traceExporter: new OTLPTraceExporter(),
    // Metrics are prom-client's (metrics.ts), logs are pino's: the SDK exports traces only.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => (req.url ?? '').startsWith('/health') }),
      // The route's span (and its handler's), not one per middleware layer: a request through the gateway passes
      // a dozen layers, and a span each cost a third of its throughput for nothing an operator reads.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation(),
      new UndiciInstrumentation(),
    ],
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
