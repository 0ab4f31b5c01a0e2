import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import pg from 'pg';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, type Infrastructure, type Service } from '@register/launcher';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { eventually, natsUrl, removeBucket, systemEvents, testS3, withServiceSettings } from '@register/testkit';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startValidatingProxy, type ValidatingProxy } from './validating-proxy';

const root = path.resolve(__dirname, '..', '..', '..', '..');

export interface TestSystem {
  system: System;
  /** Where the tests call the system: the gateway, or the validating proxy in front of it when asked for. */
  gateway: string;
  /** The gateway itself, for calls the description does not allow (ADR 0226). */
  direct: string;
  /**
   * The request and response violations the validating proxy reported since the last call (none without the
   * proxy): every call through it must keep to the committed description.
   */
  violations(): Promise<string[]>;
  /** Its own stream and subject prefix (ADR 0160): every event this system published, and no other's. */
  events: { stream: string; prefix: string };
  /** The database of one of its services (`<prefix>_<service>`), for counting what a request did. */
  databaseUrl(service: Service): string;
  /** One query on a service's database. */
  query<R extends object>(service: Service, text: string, values?: unknown[]): Promise<R[]>;
  /** SIGSTOP / SIGCONT of one service's process: a request to it then waits until it is resumed. */
  pause(service: Service): void;
  resume(service: Service): void;
  /**
   * Resolves once every audit event the given services committed so far is stored: their outboxes are empty
   * (published) and the audit consumer has nothing pending or unacknowledged.
   */
  auditSettled(services: Service[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole system as separate processes (built dist), on databases of its own (`<prefix>_<service>`), a
 * stream, durable consumers and a bucket of its own (ADR 0160), on the test NATS (or the one given) and the
 * test S3 endpoint.
 */
export async function startSystem(
  options: {
    nats?: string;
    env?: Partial<Record<Service, Record<string, string>>>;
    /** `prism proxy` in front of the gateway, checking every call against the committed description. */
    validatingProxy?: boolean;
  } = {},
): Promise<TestSystem> {
  const s3 = testS3();
  const prefix = `sys_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const events = systemEvents(prefix);
  const infra: Infrastructure = {
    postgresUrl: process.env['TEST_PG_URL'] as string,
    natsUrl: options.nats ?? natsUrl(),
    // A bucket of its own, removed at close (a persistent S3 endpoint keeps nothing of a test run).
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
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'register-system-'));
  const system = new System({
    root,
    trees: v1Trees(process.env),
    infra,
    ports,
    databasePrefix: prefix,
    logDir,
    logLevel: 'warn',
    // Parallel systems on one NATS neither see nor take each other's events.
    extraEnv: withServiceSettings(events.env, options.env),
  });
  const cleanUp = async () => {
    await dropSystemDatabases(infra.postgresUrl, prefix);
    await removeBucket(infra.s3.bucket);
    // Its consumers go with its stream, so test runs leave neither behind on the shared NATS.
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    rmSync(logDir, { recursive: true, force: true });
  };
  let proxy: ValidatingProxy | undefined;
  try {
    await system.startAll();
    if (options.validatingProxy) proxy = await startValidatingProxy(system.url('gateway'));
  } catch (err) {
    // A service that fails to start must not leave the others running behind the test.
    await system.stopAll();
    await cleanUp();
    throw err;
  }
  const databaseUrl = (service: Service) => {
    const url = new URL(infra.postgresUrl);
    url.pathname = `/${prefix}_${service}`;
    return url.toString();
  };
  const query = async <R extends object>(service: Service, text: string, values: unknown[] = []): Promise<R[]> => {
    const client = new pg.Client({ connectionString: databaseUrl(service) });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const signal = (service: Service, sig: NodeJS.Signals) => {
    const pid = system.pid(service);
    if (pid === undefined) throw new Error(`${service} is not running`);
    process.kill(pid, sig);
  };
  return {
    system,
    gateway: proxy?.url ?? system.url('gateway'),
    direct: system.url('gateway'),
    violations: async () => (proxy ? proxy.violations() : []),
    events: { stream: events.stream, prefix: events.prefix },
    databaseUrl,
    query,
    pause: (service) => signal(service, 'SIGSTOP'),
    resume: (service) => signal(service, 'SIGCONT'),
    async auditSettled(services) {
      for (const service of services) {
        await eventually(
          async () =>
            (await query<{ n: number }>(service, 'SELECT count(*)::int AS n FROM outbox'))[0]?.n === 0
              ? true
              : undefined,
          30_000,
        );
      }
      const nc = await connect({ servers: infra.natsUrl, name: 'system-test-audit-settled' });
      try {
        const jsm = await jetstreamManager(nc);
        await eventually(async () => {
          const info = await jsm.consumers.info(events.stream, events.consumers.audit);
          return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
        }, 30_000);
      } finally {
        await nc.close();
      }
    },
    async close() {
      await proxy?.close();
      await system.stopAll();
      await cleanUp();
    },
  };
}

/**
 * `npm run test:mixed` runs the whole-system suite once with some services from the v1.0.0 tree (ADR 0230):
 * SYSTEM_TEST_V1_TREE names the built tree, SYSTEM_TEST_V1_SERVICES the services that run from it.
 */
function v1Trees(env: NodeJS.ProcessEnv): Partial<Record<Service, string>> {
  const tree = env['SYSTEM_TEST_V1_TREE'];
  const services = (env['SYSTEM_TEST_V1_SERVICES'] ?? '').split(',').filter(Boolean);
  if (!tree || services.length === 0) return {};
  for (const s of services) if (!(SERVICES as readonly string[]).includes(s)) throw new Error(`${s} is no service`);
  return Object.fromEntries(services.map((s) => [s, tree]));
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
