import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import pino from 'pino';
import { freePort } from '@register/embedded';
import {
  SERVICES,
  System,
  dropSystemDatabases,
  systemDatabase,
  zgwSettingsOf,
  type Infrastructure,
  type Service,
} from '@register/launcher';
import { natsUrl, removeBucket, systemEvents, testS3, withServiceSettings } from '@register/testkit';
import { startZgwSimulator, type ZgwSimulator } from '@register/zgw-sim';

const SECRET = 'gateway-mirrored-system-zgw-secret-0123456789abcdef';
const CLIENT_ID = 'register';

/** The whole system as processes (tools/launcher's System) with mirroring into a ZGW simulator of this test's own. */
export interface MirroredSystem {
  sim: ZgwSimulator;
  gateway: string;
  /** The services' processes (to stop, kill or start one). */
  system: System;
  /** The server URL of one service's database in this system. */
  databaseUrl(service: Service): string;
  close(): Promise<void>;
}

/**
 * Starts it with databases, a stream, consumers and a bucket of its own (ADR 0160); `notificaties` is the
 * webhook's Authorization the applications service accepts. `spool`: every service keeps a read's processing records
 * in a spool under the system's own directory, as deployed (ADR 0269).
 */
export async function startMirroredSystem(
  tag: string,
  notificaties?: string,
  options: { spool?: boolean } = {},
): Promise<MirroredSystem> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const prefix = `${tag}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const events = systemEvents(prefix);
  const bucket = `documents-${prefix.replace(/_/g, '-')}`;
  const postgresUrl = process.env['TEST_PG_URL'] as string;
  const sim = await startZgwSimulator({ secret: SECRET, clientId: CLIENT_ID, logger: pino({ level: 'silent' }) });
  const s3 = testS3();
  const infra: Infrastructure = {
    postgresUrl,
    natsUrl: natsUrl(),
    s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket },
    embedded: [],
    stop: async () => undefined,
    zgw: {
      ...zgwSettingsOf(sim, { clientId: CLIENT_ID, secret: SECRET, pollMs: 100 }),
      ...(notificaties ? { NOTIFICATIES_AUTH: notificaties } : {}),
    },
  };
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const logDir = mkdtempSync(path.join(os.tmpdir(), `register-${tag}-`));
  const system = new System({
    root,
    infra,
    ports,
    databasePrefix: prefix,
    logDir,
    logLevel: 'warn',
    extraEnv: withServiceSettings(
      events.env,
      options.spool ? Object.fromEntries(SERVICES.map((s) => [s, { LDV_SPOOL_DIR: path.join(logDir, 'spool') }])) : {},
    ),
  });
  const close = async () => {
    await system.stopAll();
    await dropSystemDatabases(postgresUrl, prefix);
    await events.remove(natsUrl());
    await removeBucket(bucket);
    await sim.close();
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    await system.startAll();
  } catch (err) {
    await close();
    throw err;
  }
  return {
    sim,
    gateway: system.url('gateway'),
    system,
    databaseUrl(service) {
      const url = new URL(postgresUrl);
      url.pathname = `/${systemDatabase(prefix, service)}`;
      return url.toString();
    },
    close,
  };
}
