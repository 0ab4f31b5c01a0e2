import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import pg from 'pg';
import { freePort } from '@register/embedded';
import {
  SERVICES,
  START_ORDER,
  System,
  dropSystemDatabases,
  type Infrastructure,
  type Service,
} from '@register/launcher';
import { natsUrl, removeBucket, systemEvents, testS3 } from '@register/testkit';

export const HEAD_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export type Version = 'v1.0.0' | 'HEAD';

/**
 * The six services as separate processes, each from the tree of its version (v1.0.0's or this one), on one
 * database server and one NATS, with databases, a stream and a bucket of the system's own (ADR 0160).
 */
export interface MixedSystem {
  system: System;
  gateway: string;
  /** Its own stream and subject prefix (ADR 0160). */
  events: { stream: string; prefix: string };
  versions(): Record<Service, Version>;
  /** Stops `service` (if it runs) and starts it from the tree of `version`, on the same database. */
  run(service: Service, version: Version): Promise<void>;
  /** Each service whose version differs from `target` restarted at it, in the start order. */
  arrange(target: Record<Service, Version>): Promise<void>;
  /** The database server's view of one service's database. */
  query<R extends object>(service: Service, text: string, values?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export async function startMixedSystem(
  baselineRoot: string,
  versions: Record<Service, Version>,
  options: { logLevel?: string } = {},
): Promise<MixedSystem> {
  const s3 = testS3();
  const prefix = `mix_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const events = systemEvents(prefix);
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
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'register-mixed-'));
  const treeOf = (version: Version) => (version === 'HEAD' ? HEAD_ROOT : baselineRoot);
  const current = { ...versions };
  const system = new System({
    root: HEAD_ROOT,
    trees: Object.fromEntries(SERVICES.map((s) => [s, treeOf(versions[s])])),
    infra,
    ports,
    databasePrefix: prefix,
    logDir,
    logLevel: options.logLevel ?? 'warn',
    extraEnv: events.env,
  });
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
    await cleanUp();
    throw err;
  }
  const query = async <R extends object>(service: Service, text: string, values: unknown[] = []): Promise<R[]> => {
    const url = new URL(infra.postgresUrl);
    url.pathname = `/${prefix}_${service}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const run = async (service: Service, version: Version): Promise<void> => {
    await system.stop(service);
    system.useTree(service, treeOf(version));
    await system.start(service);
    current[service] = version;
  };
  return {
    system,
    gateway: system.url('gateway'),
    events: { stream: events.stream, prefix: events.prefix },
    versions: () => ({ ...current }),
    run,
    async arrange(target) {
      for (const group of START_ORDER)
        for (const service of group) if (current[service] !== target[service]) await run(service, target[service]);
    },
    query,
    async close() {
      await system.stopAll();
      await cleanUp();
    },
  };
}

/** Every service at one version. */
export const allAt = (version: Version): Record<Service, Version> =>
  Object.fromEntries(SERVICES.map((s) => [s, version])) as Record<Service, Version>;
