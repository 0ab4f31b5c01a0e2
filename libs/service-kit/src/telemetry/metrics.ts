import http from 'node:http';
import type pg from 'pg';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../logger';

/**
 * One service's metrics: a registry of its own (the single-process mode runs six services in one process),
 * served by `serveMetrics` on METRICS_PORT, never on the public port.
 */
export interface ServiceMetrics {
  registry: Registry;
  /** Requests by method, route (the route's pattern, never the raw URL) and status; its `_count` is the rate. */
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
}

/** Default METRICS_PORT per service: the gateway on 9464 (OpenTelemetry's Prometheus port), the rest next to it. */
export const DEFAULT_METRICS_PORTS: Record<string, number> = {
  gateway: 9464,
  applications: 9465,
  documents: 9466,
  letters: 9467,
  reference: 9468,
  audit: 9469,
};

const METRICS = Symbol.for('register.metrics');

/**
 * The metrics of the service a logger belongs to. They travel on the service's root logger (pino's child
 * loggers inherit its properties), so the request logger, the outbox relay and the consumers find them
 * without every service passing them along.
 */
export function metricsOf(logger: Logger): ServiceMetrics | undefined {
  return (logger as unknown as Record<symbol, ServiceMetrics | undefined>)[METRICS];
}

export function createServiceMetrics(service: string, logger: Logger): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // Process, heap, GC and event-loop delay (nodejs_eventloop_lag_seconds, nodejs_eventloop_lag_p99_seconds …).
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help:
      'HTTP requests by method, route and status: duration; ' +
      '_count is the request rate, status_code 5xx the errors.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const metrics: ServiceMetrics = { registry, httpDuration };
  Object.defineProperty(logger, METRICS, { value: metrics, enumerable: false });
  return metrics;
}

/** A gauge read when scraped; a read that fails leaves the gauge out of that scrape. */
export function gaugeCallback(
  registry: Registry,
  name: string,
  help: string,
  read: () => Promise<number | Record<string, number>> | number | Record<string, number>,
  labelName?: string,
): void {
  new Gauge({
    name,
    help,
    labelNames: labelName ? [labelName] : [],
    registers: [registry],
    async collect() {
      this.reset();
      const value = await Promise.resolve(read()).catch(() => null);
      if (value === null) return;
      if (typeof value === 'number') this.set(value);
      else for (const [label, v] of Object.entries(value)) this.set({ [labelName ?? 'name']: label }, v);
    },
  });
}

/** Connections open, idle and requests waiting for one. */
export function poolMetrics(registry: Registry, pool: pg.Pool): void {
  gaugeCallback(
    registry,
    'db_pool_connections',
    'Database pool connections by state.',
    () => ({ total: pool.totalCount, idle: pool.idleCount }),
    'state',
  );
  gaugeCallback(registry, 'db_pool_waiting', 'Queries waiting for a pool connection.', () => pool.waitingCount);
}

/**
 * GET /metrics (Prometheus text) on its own port; nothing else. A port that is taken leaves the service
 * running without metrics (a warning): the metrics are not the service's reason to exist.
 */
export async function serveMetrics(
  metrics: ServiceMetrics,
  port: number,
  host: string,
  logger: Logger,
): Promise<{ server: http.Server; port: number } | null> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.statusCode = 404;
      return res.end();
    }
    metrics.registry.metrics().then(
      (text) => {
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.end(text);
      },
      (err: unknown) => {
        logger.warn({ err }, 'metrics not collected');
        res.statusCode = 500;
        res.end();
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (err) => {
      logger.warn({ err, port }, 'metrics port not available; serving no metrics');
      resolve(null);
    });
    server.listen(port, host, () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}
