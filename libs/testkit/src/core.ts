import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as S3Client } from 'minio';
import pg from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type Identity, type Role } from '@register/authz';

export const TEST_SECRET = 'test-internal-identity-secret-0123456789abcdef';
/** The processing log's pseudonym key in tests (ADR 0181). */
export const TEST_LDV_SECRET = 'test-ldv-pseudonym-secret-0123456789abcdef';

function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests through jest (its globalSetup resolves the infrastructure)`);
  return value;
}

export function natsUrl(): string {
  return env('TEST_NATS_URL');
}

/** This test run's own stream and subject prefix (the global setup makes them; the teardown deletes the stream). */
export function testEvents(): { stream: string; prefix: string } {
  return { stream: env('TEST_EVENTS_STREAM'), prefix: env('TEST_EVENTS_SUBJECT_PREFIX') };
}

/** The settings a service started by a test gets, so it publishes and consumes on the run's own stream. */
export function testEventsEnv(): Record<string, string> {
  const { stream, prefix } = testEvents();
  return { EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: prefix };
}

export interface TestS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  embedded: boolean;
}

export function testS3(): TestS3 {
  return {
    endpoint: env('TEST_S3_ENDPOINT'),
    accessKey: env('TEST_S3_ACCESS_KEY'),
    secretKey: env('TEST_S3_SECRET_KEY'),
    embedded: process.env['TEST_S3_EMBEDDED'] === 'true',
  };
}

/**
 * Removes a bucket of the test S3 endpoint with everything in it, so a run leaves no bucket behind; a bucket that is
 * not there is fine.
 */
export async function removeBucket(bucket: string): Promise<void> {
  const s3 = testS3();
  const endpoint = new URL(s3.endpoint);
  const client = new S3Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80)),
    useSSL: endpoint.protocol === 'https:',
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: 'us-east-1',
  });
  if (!(await client.bucketExists(bucket).catch(() => false))) return;
  const keys: string[] = [];
  for await (const o of client.listObjectsV2(bucket, '', true) as AsyncIterable<{ name?: string }>)
    if (o.name) keys.push(o.name);
  if (keys.length > 0) await client.removeObjects(bucket, keys);
  await client.removeBucket(bucket);
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database per test file, so suites never share tables. */
export async function createTestDatabase(prefix = 't'): Promise<TestDatabase> {
  const admin = env('TEST_PG_URL');
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function serve(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function practitioner(subject: string, role: Role = 'drafter'): Identity {
  return { practitioner: { subject, role }, caseHandler: null, adminSeam: false };
}

export function caseHandler(medewerker: string, rollen: string[] = ['beoordelaar']): Identity {
  return { practitioner: null, caseHandler: { medewerker, rollen }, adminSeam: false };
}

/** Headers the gateway would forward for this identity (to call a service directly in its tests). */
export function asUser(identity: Identity | null, correlationId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(TEST_SECRET, {
      identity,
      service: null,
      correlationId: correlationId ?? null,
    }),
  };
  if (correlationId) headers['x-correlation-id'] = correlationId;
  return headers;
}

/** Headers of another service calling an internal route. */
export function asService(service: string): Record<string, string> {
  return {
    [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(TEST_SECRET, {
      identity: null,
      service: { service },
      correlationId: null,
    }),
  };
}

export function uniqueSubject(): string {
  return `9${Math.floor(Math.random() * 1e8)
    .toString()
    .padStart(8, '0')}`;
}

/** Polls until `check` returns a value other than undefined (for eventually-consistent outcomes). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${timeoutMs} ms` +
          `${last ? `: ${last instanceof Error ? String(last) : JSON.stringify(last)}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Deletes durable consumers a test created on the shared NATS (named per test system), so test
 * runs leave none behind; a consumer that is already gone is fine.
 */
export async function removeDurableConsumers(
  url: string,
  names: string[],
  stream = testEvents().stream,
): Promise<void> {
  const nc = await connect({ servers: url, name: 'test-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    for (const name of names) await jsm.consumers.delete(stream, name).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** A service started by a test exactly as in production (its `runService`), on a database of its own. */
export interface TestService<Ctx> {
  url: string;
  context: Ctx;
  /** The service's ordered shutdown, keeping its database (a restart test starts it again on `databaseUrl`). */
  stop(): Promise<boolean>;
  databaseUrl: string;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
}

type Start<Ctx> = (
  env: NodeJS.ProcessEnv,
  options?: { ownsProcess?: boolean; override?: (context: Ctx) => Ctx },
) => Promise<{ url: string; context: Ctx; stop(): Promise<boolean> }>;

export async function startService<Ctx>(
  start: Start<Ctx>,
  options: { name: string; env?: Record<string, string>; override?: (context: Ctx) => Ctx; database?: TestDatabase },
): Promise<TestService<Ctx>> {
  const database = options.database ?? (await createTestDatabase(options.name));
  try {
    const served = await start(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        NATS_URL: natsUrl(),
        ...testEventsEnv(),
        INTERNAL_IDENTITY_SECRET: TEST_SECRET,
        LDV_PSEUDONYM_SECRET: TEST_LDV_SECRET,
        LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
        METRICS_PORT: 'off',
        ...options.env,
      },
      { ownsProcess: false, ...(options.override ? { override: options.override } : {}) },
    );
    return {
      url: served.url,
      context: served.context,
      stop: () => served.stop(),
      databaseUrl: database.url,
      async close() {
        await served.stop();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}
