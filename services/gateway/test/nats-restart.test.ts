import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { freePort, hasNatsServer, startNatsServer, type Running } from '@register/embedded';
import { eventually } from '@register/testkit';
import { startSystem, users, type TestSystem } from './support/system';

// The audit trail survives a broker restart: nothing lost (outbox + durable consumer), nothing doubled
// (Nats-Msg-Id dedupe + insert by event id). This test restarts a NATS server of its own, so it needs the
// nats-server binary, found as `npm start` finds it (on the PATH, libs/embedded hasNatsServer).
describe('audit log across a NATS restart', () => {
  let sys: TestSystem;
  let nats: Running;
  let port: number;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'register-nats-'));

  beforeAll(async () => {
    if (!hasNatsServer()) {
      throw new Error(
        'nats-server is not on the PATH: this test stops and starts a NATS server of its own ' +
          'and cannot run without the binary (install nats-server, as npm start would use it).',
      );
    }
    port = await freePort();
    nats = await startNatsServer(dir, port);
    sys = await startSystem({ nats: nats.url });
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const setFlag = (enabled: boolean, correlationId: string) =>
    fetch(`${sys.gateway}/api/v1/admin/flags/herregistratie-aanvragen`, {
      method: 'PUT',
      headers: { ...users.admin, 'content-type': 'application/json', 'X-Correlation-Id': correlationId },
      body: JSON.stringify({ enabled }),
    });
  const rowsFor = async (correlationId: string) => {
    const res = await fetch(`${sys.gateway}/api/v1/admin/audit?correlationId=${correlationId}`, {
      headers: users.admin,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Array<{ correlationId: string; action: string }>;
  };
  const unpublished = async (correlationId: string) =>
    sys.query<{ subject: string }>(
      'reference',
      "SELECT subject FROM outbox WHERE envelope->>'correlationId' = $1 ORDER BY subject",
      [correlationId],
    );
  const ready = async () => (await fetch(`${sys.gateway}/health/ready`)).status;

  it('when NATS restarts right after the write, then the change appears exactly once', async () => {
    const correlationId = `restart-${randomUUID()}`;
    expect((await setFlag(false, correlationId)).status).toBe(204);
    await nats.stop();
    nats = await startNatsServer(dir, port);

    // Everything the reference service wrote is published and everything published is consumed: then count.
    await sys.auditSettled(['reference']);
    expect((await rowsFor(correlationId)).map((r) => r.action)).toEqual(['flag:set']);
  }, 60_000);

  it(
    'when NATS is down during the write, then the write succeeds, its events wait in the outbox, ' +
      'readiness says 503, and after the restart the change appears exactly once',
    async () => {
      await nats.stop();
      await eventually(async () => ((await ready()) === 503 ? true : undefined), 30_000);
      const correlationId = `down-${randomUUID()}`;
      expect((await setFlag(true, correlationId)).status).toBe(204);
      // Not published while NATS is down: both events of the write are still in the reference service's outbox.
      expect((await unpublished(correlationId)).map((r) => r.subject)).toEqual([
        'register.audit.reference',
        'register.reference.flag-changed',
      ]);

      nats = await startNatsServer(dir, port);
      await sys.auditSettled(['reference']);
      expect(await unpublished(correlationId)).toEqual([]);
      expect((await rowsFor(correlationId)).map((r) => r.action)).toEqual(['flag:set']);
      await eventually(async () => ((await ready()) === 200 ? true : undefined), 30_000);
    },
    90_000,
  );
});
