import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { freePort } from '@register/embedded';
// The launcher depends on service-kit: declaring it back would make a cycle in the workspace graph (turbo).
// eslint-disable-next-line import-x/no-extraneous-dependencies
import { SERVICES, System, dropSystemDatabases, type Infrastructure, type Service } from '@register/launcher';
import { natsUrl, removeBucket, systemEvents, testS3, withServiceSettings } from '@register/testkit';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/** A collector stand-in: accepts OTLP/HTTP posts and keeps their bodies. */
export interface Collector {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(Buffer.concat(chunks).toString());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, bodies, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface TracedSystem {
  gateway: string;
  url(service: Service): string;
  metricsUrl(service: Service): string;
  /** The JSON log lines a service wrote so far. */
  logLines(service: Service): Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * The six services as processes (built dist) at LOG_LEVEL info, each with its own METRICS_PORT, on databases,
 * a stream, durable consumers and a bucket of their own (ADR 0160); `env` adds settings per service
 * (OTEL_EXPORTER_OTLP_ENDPOINT).
 */
export async function startTracedSystem(
  env: Partial<Record<Service, Record<string, string>>> = {},
): Promise<TracedSystem> {
  const s3 = testS3();
  const prefix = `tel_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const infra: Infrastructure = {
    postgresUrl: process.env['TEST_PG_URL'] as string,
    natsUrl: natsUrl(),
    s3: {
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: `documents-${prefix.replace(/_/g, '-')}`,
    },
    embedded: [],
    stop: async () => undefined,
  };
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const metricsPorts = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const events = systemEvents(prefix);
  const metrics = Object.fromEntries(SERVICES.map((s) => [s, { METRICS_PORT: String(metricsPorts[s]) }]));
  const extraEnv = withServiceSettings(withServiceSettings(events.env, metrics), env);
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'register-telemetry-'));
  const system = new System({ root, infra, ports, databasePrefix: prefix, logDir, logLevel: 'info', extraEnv });
  const cleanUp = async () => {
    await dropSystemDatabases(infra.postgresUrl, prefix);
    await removeBucket(infra.s3.bucket);
    await events.remove(infra.natsUrl);
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    await system.startAll();
  } catch (err) {
    await system.stopAll();
    // The failing service's own words, before its log goes with the rest.
    const logs = SERVICES.map((s) => {
      const file = path.join(logDir, `${s}.log`);
      return `${s}: ${(existsSync(file) ? readFileSync(file, 'utf8') : '').slice(-1500)}`;
    }).join('\n');
    await cleanUp();
    throw Object.assign(new Error(`${(err as Error).message}\n${logs}`), { cause: err });
  }
  return {
    gateway: system.url('gateway'),
    url: (service) => system.url(service),
    metricsUrl: (service) => `http://127.0.0.1:${metricsPorts[service]}/metrics`,
    logLines: (service) =>
      readFileSync(path.join(logDir, `${service}.log`), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async close() {
      await system.stopAll();
      await cleanUp();
    },
  };
}
