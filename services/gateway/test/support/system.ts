import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import pg from 'pg';
import { freePort } from '@register/embedded';
import { SERVICES, System, type Infrastructure, type Service } from '@register/launcher';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { natsUrl, removeDurableConsumers, testS3 } from '@register/testkit';

const root = path.resolve(__dirname, '..', '..', '..', '..');

export interface TestSystem {
  system: System;
  gateway: string;
  close(): Promise<void>;
}

/**
 * The whole system as separate processes (built dist), on databases of its own (`<prefix>_<service>`),
 * the test NATS (or the one given) and the test S3 endpoint.
 */
export async function startSystem(options: { nats?: string } = {}): Promise<TestSystem> {
  const s3 = testS3();
  const infra: Infrastructure = {
    postgresUrl: process.env['TEST_PG_URL'] as string,
    natsUrl: options.nats ?? natsUrl(),
    s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'documents' },
    embedded: [],
    stop: async () => undefined,
  };
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<Service, number>;
  const prefix = `sys_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const system = new System({
    root,
    infra,
    ports,
    databasePrefix: prefix,
    logDir: mkdtempSync(path.join(os.tmpdir(), 'register-system-')),
    logLevel: 'warn',
    // Each system has its own durable consumers, so parallel systems on one NATS do not share events.
    extraEnv: { audit: { AUDIT_CONSUMER: `audit_${prefix}` }, documents: { APPLICATION_EVENTS_CONSUMER: `documents_${prefix}` } },
  });
  const dropDatabases = async () => {
    const client = new pg.Client({ connectionString: infra.postgresUrl });
    await client.connect();
    for (const s of SERVICES) await client.query(`DROP DATABASE IF EXISTS "${prefix}_${s}" WITH (FORCE)`);
    await client.end();
  };
  try {
    await system.startAll();
  } catch (err) {
    // A service that fails to start must not leave the others running behind the test.
    await system.stopAll();
    await dropDatabases();
    throw err;
  }
  return {
    system,
    gateway: system.url('gateway'),
    async close() {
      await system.stopAll();
      await dropDatabases();
      // Its durable consumers go too, so test runs leave no consumers behind on the shared NATS.
      if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await removeDurableConsumers(infra.natsUrl, [`audit_${prefix}`, `documents_${prefix}`]);
    },
  };
}

export const users = {
  none: {},
  drafter: { 'X-Subject': '900000001', 'X-Role': 'drafter' },
  approver: { 'X-Subject': '900000002', 'X-Role': 'approver' },
  admin: { 'X-Subject': '900000003', 'X-Role': 'admin' },
  beoordelaar: { 'X-Medewerker': 'mw-001', 'X-Rollen': 'beoordelaar' },
  medewerker: { 'X-Medewerker': 'mw-002', 'X-Rollen': 'behandelaar' },
  adminSeam: { 'X-Subject': '900000004', 'X-Admin': 'true' },
} as const satisfies Record<string, Record<string, string>>;
export type UserKind = keyof typeof users;
