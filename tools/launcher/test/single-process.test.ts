import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '@register/embedded';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { eventually, removeBucket, testS3 } from '@register/testkit';
import { SERVICES, System, dropSystemDatabases, type Service } from '../src';

const root = path.resolve(__dirname, '..', '..', '..');
const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };
const practitioner = { 'X-Subject': '900000001' };

/**
 * ADR 0037: the six services in one process with the
 * in-process event transport, driven over HTTP through the gateway like the multi-process system.
 */
describe('the single-process mode (in-process events)', () => {
  let system: System;
  let gateway: string;
  let logDir: string;
  const prefix = `sp_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const bucket = `documents-${prefix.replace(/_/g, '-')}`;
  const postgresUrl = process.env['TEST_PG_URL'] as string;

  beforeAll(async () => {
    const s3 = testS3();
    const ports = Object.fromEntries(
      await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
    ) as Record<Service, number>;
    logDir = mkdtempSync(path.join(os.tmpdir(), 'register-single-'));
    system = new System({
      root,
      infra: {
        postgresUrl,
        natsUrl: IN_PROCESS_EVENTS_URL,
        s3: { endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket },
        embedded: [],
        stop: async () => undefined,
      },
      ports,
      databasePrefix: prefix,
      logDir,
      logLevel: 'info',
    });
    expect(system.singleProcess).toBe(true);
    await system.startAll();
    gateway = system.url('gateway');
  }, 120_000);

  afterAll(async () => {
    await system?.stopAll();
    await dropSystemDatabases(postgresUrl, prefix);
    await removeBucket(bucket);
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('when it is up, then every service is ready in one process', async () => {
    const statuses = await Promise.all(
      SERVICES.map(async (s) => [s, (await fetch(`${system.url(s)}/health/ready`)).status] as const),
    );
    expect(statuses).toEqual(SERVICES.map((s) => [s, 200]));
    const pid = system.pid('gateway');
    expect(pid).toBeDefined();
    expect(SERVICES.map((s) => system.pid(s))).toEqual(SERVICES.map(() => pid));
  });

  it(
    'when an admin sets a flag, then the change is audited with its ' +
      "correlation id and the applications service's flag cache hears of it",
    async () => {
      const eligible = async () =>
        (
          (await (await fetch(`${gateway}/api/v1/dashboard-view`, { headers: practitioner })).json()) as {
            decisions: { herregistratieReason: string | null };
          }
        ).decisions.herregistratieReason;
      expect(await eligible()).toBeNull(); // the cache now holds the flag as on (its TTL is 30 s)

      const correlationId = randomUUID();
      const put = await fetch(`${gateway}/api/v1/admin/flags/herregistratie-aanvragen`, {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json', 'X-Correlation-Id': correlationId },
        body: JSON.stringify({ enabled: false }),
      });
      expect(put.status).toBe(204);
      try {
        const row = await eventually(async () => {
          const rows = (await (
            await fetch(`${gateway}/api/v1/admin/audit?action=flag:set`, { headers: admin })
          ).json()) as Array<{ correlationId: string; action: string; resource: string }>;
          return rows.find((r) => r.correlationId === correlationId);
        }, 10_000);
        expect(row).toMatchObject({ action: 'flag:set', resource: 'flag/herregistratie-aanvragen' });
        // Well inside the cache's TTL: only the flag-changed event can have dropped it.
        await eventually(async () => ((await eligible()) === 'uitgeschakeld' ? true : undefined), 10_000);
      } finally {
        await fetch(`${gateway}/api/v1/admin/flags/herregistratie-aanvragen`, {
          method: 'PUT',
          headers: { ...admin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ enabled: true }),
        });
      }
      await eventually(async () => ((await eligible()) === null ? true : undefined), 10_000);
    },
  );

  it(
    'when it is stopped, then the services stop in the reverse of ' +
      'the start order, the audit consumer last (and it starts again)',
    async () => {
      const log = () => readFileSync(path.join(logDir, 'system.log'), 'utf8');
      const before = log().length;
      await system.stopAll();
      // In the order the lines were logged (their time): six loggers in one process write to one pipe, each through
      // its own asynchronous buffer, so the file's order of lines logged a moment apart is not theirs.
      const stopped = log()
        .slice(before)
        .split('\n')
        .filter((line) => line.includes('"msg":"stopped"'))
        .map((line) => JSON.parse(line) as { name: string; time: number })
        .sort((a, b) => a.time - b.time)
        .map((line) => line.name);
      expect(stopped).toHaveLength(6);
      expect(stopped[0]).toBe('gateway');
      expect(stopped.slice(1, 3).sort()).toEqual(['applications', 'letters']);
      expect(stopped.slice(3)).toEqual(['documents', 'reference', 'audit']);
      expect(system.pid('gateway')).toBeUndefined();
      // Left as found, so no test here has to run last.
      await system.startAll();
      expect((await fetch(`${gateway}/health/ready`)).status).toBe(200);
    },
    120_000,
  );
});
