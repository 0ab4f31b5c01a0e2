import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pino from 'pino';
import { freePort } from '@register/embedded';
import {
  Cluster,
  SERVICES,
  dropSystemDatabases,
  startNatsCluster,
  zgwSettingsOf,
  type Infrastructure,
  type NatsCluster,
} from '@register/launcher';
import { eventually, removeBucket, testS3 } from '@register/testkit';
import { startZgwSimulator, type ZgwSimulator } from '@register/zgw-sim';
import { users } from './support/system';
import { call as callGateway, submitIntake } from './support/through-gateway';

// issue 25 §1, §2, §4 (ADR 0203): the replicated system `npm run cluster` starts (HAProxy over three gateways,
// two copies of every service, three of applications here, a three-node NATS cluster with the stream at three
// replicas, mirroring on), with the system's API flows through it, work done once, and a NATS node killed.
const root = path.resolve(__dirname, '..', '..', '..');
const SECRET = 'gateway-cluster-test-secret-0123456789abcdef';
const CLIENT_ID = 'register';
const prefix = `cl_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const bucket = `documents-${prefix.replace(/_/g, '-')}`;
const postgresUrl = process.env['TEST_PG_URL'] as string;

let sim: ZgwSimulator;

let nats: NatsCluster;
let cluster: Cluster;
let dir: string;
let api: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'register-cluster-'));
  sim = await startZgwSimulator({ secret: SECRET, clientId: CLIENT_ID, logger: pino({ level: 'silent' }) });
  nats = await startNatsCluster(path.join(dir, 'nats'));
  const s3 = testS3();
  const infra: Infrastructure = {
    postgresUrl,
    natsUrl: nats.url,
    s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket },
    embedded: [],
    stop: async () => undefined,
    zgw: {
      ...zgwSettingsOf(sim, { clientId: CLIENT_ID, secret: SECRET, pollMs: 100 }),
      NOTIFICATIES_AUTH: 'Token gateway-cluster-notificaties',
    },
  };
  cluster = new Cluster({
    root,
    infra,
    port: await freePort(),
    dataDir: dir,
    logDir: path.join(dir, 'logs'),
    replicas: { applications: 3 },
    databasePrefix: prefix,
    logLevel: 'warn',
    // Fourteen processes on the tests' shared server: small pools leave its connections to the other tests.
    extraEnv: Object.fromEntries(SERVICES.map((s) => [s, { DB_POOL_MAX: '2' }])),
  });
  await cluster.start();
  api = cluster.url;
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await nats?.stop();
  await dropSystemDatabases(postgresUrl, prefix);
  await removeBucket(bucket);
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

const call = (method: string, url: string, headers: Record<string, string>, body?: unknown) =>
  callGateway(api, method, url, headers, body);

/** Every audit row with this correlation id: its actions. */
async function auditActions(correlationId: string): Promise<string[]> {
  const res = await call('GET', `/api/v1/admin/audit?correlationId=${correlationId}`, users.admin);
  expect(res.status).toBe(200);
  return (res.body as Array<{ action: string }>).map((r) => r.action);
}

/** Every durable consumer has nothing pending or unacknowledged. */
async function consumersSettled(): Promise<void> {
  await eventually(async () => {
    const status = await call('GET', '/api/v1/admin/system', users.admin);
    const consumers = status.body.consumers as Array<{ pending: number }>;
    return consumers.length > 0 && consumers.every((c) => c.pending === 0) ? true : undefined;
  }, 60_000);
}

async function setFlag(enabled: boolean, correlationId: string): Promise<number> {
  const res = await call(
    'PUT',
    '/api/v1/admin/flags/herregistratie-aanvragen',
    {
      ...users.admin,
      'X-Correlation-Id': correlationId,
    },
    { enabled },
  );
  return res.status;
}

describe('the replicated system (npm run cluster)', () => {
  it(
    'when it is up, then HAProxy answers over three gateways, ' +
      'every service runs twice (applications three times) and the stream has three replicas',
    async () => {
      expect(SERVICES.map((s) => [s, cluster.running(s).length])).toEqual([
        ['reference', 2],
        ['audit', 2],
        ['documents', 2],
        ['applications', 3],
        ['letters', 2],
        ['gateway', 3],
      ]);
      expect((await fetch(`${api}/health/ready`)).status).toBe(200);
      const nc = await connect({ servers: nats.url.split(',') });
      try {
        const jsm = await jetstreamManager(nc);
        const names: string[] = [];
        for await (const name of jsm.streams.names()) names.push(name);
        expect(names).toHaveLength(1);
        const info = await jsm.streams.info(names[0]!);
        expect(info.config.num_replicas).toBe(3);
        expect(info.cluster?.replicas?.length).toBe(2);
      } finally {
        await nc.close();
      }
    },
  );

  it(
    'when the API is used through the load balancer, then reads, ' +
      'a flag change with its audit row and a submit with a document answer as on one machine',
    async () => {
      expect((await call('GET', '/api/v1/me', users.admin)).status).toBe(200);
      expect((await call('GET', '/api/v1/stamdata', users.admin)).status).toBe(200);
      const correlationId = `cl-flag-${randomUUID()}`;
      expect(await setFlag(true, correlationId)).toBe(204);
      expect(
        await eventually(async () => ((await auditActions(correlationId)).length ? true : undefined), 30_000),
      ).toBe(true);
      expect(await auditActions(correlationId)).toEqual(['flag:set']);
      const { id, me } = await submitIntake(api, '900000101');
      expect((await call('GET', `/api/v1/applications/${id}`, me)).status).toBe(200);
    },
    120_000,
  );

  it(
    'when nine applications are submitted with documents over three copies of applications, ' +
      'then each has one zaak with one status, ' +
      'one rol and one document in the zaaksysteem, and no audit row twice',
    async () => {
      const submitted: Array<{ referentie: string; correlationId: string }> = [];
      const subjects = Array.from({ length: 9 }, (_, n) => String(920_000_000 + n));
      await Promise.all(
        [0, 1, 2].map(async (w) => {
          for (const subject of subjects.filter((_, n) => n % 3 === w))
            submitted.push(await submitIntake(api, subject));
        }),
      );
      // Done: every case mirrored and nothing owed any more.
      await eventually(async () => {
        const status = await call('GET', '/api/v1/admin/system', users.admin);
        const mirrored = submitted.every((s) => sim.state.zakenWithIdentificatie(s.referentie).length > 0);
        return mirrored && status.body.caseMirror?.backlog === 0 ? true : undefined;
      }, 120_000);
      const counts = submitted.map(({ referentie }) => {
        const zaken = sim.state.zakenWithIdentificatie(referentie);
        return {
          referentie,
          zaken: zaken.length,
          statussen: zaken[0]?.statussen.length,
          rollen: zaken[0]?.rollen.length,
          documenten: zaken[0]?.zaakinformatieobjecten.length,
        };
      });
      expect(counts).toEqual(
        submitted.map(({ referentie }) => ({ referentie, zaken: 1, statussen: 1, rollen: 1, documenten: 1 })),
      );
      // No audit row twice (a redelivered event stored again would repeat one whole).
      await consumersSettled();
      const rows = (await call('GET', '/api/v1/admin/audit?limit=1000', users.admin)).body as object[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBe(new Set(rows.map((r) => JSON.stringify(r))).size);
    },
    300_000,
  );

  it(
    'when a NATS node is killed and restarted while flags are being set, ' +
      'then every acknowledged change is audited exactly once',
    async () => {
      const run = randomUUID().slice(0, 8);
      const acknowledged: string[] = [];
      const refused: string[] = [];
      for (let n = 0; n < 30; n++) {
        if (n === 10) await nats.nodes[0]!.kill();
        if (n === 20) await nats.nodes[0]!.start();
        const correlationId = `cl-nats-${run}-${n}`;
        const status = await setFlag(n % 2 === 0, correlationId);
        if (status === 204) acknowledged.push(correlationId);
        else refused.push(`write ${n}: ${status}`);
      }
      expect(refused).toEqual([]);
      for (const correlationId of acknowledged)
        await eventually(async () => ((await auditActions(correlationId)).length ? true : undefined), 60_000);
      await consumersSettled();
      const found = await Promise.all(acknowledged.map(async (c) => [c, await auditActions(c)]));
      expect(found).toEqual(acknowledged.map((c) => [c, ['flag:set']]));
    },
    300_000,
  );
});
