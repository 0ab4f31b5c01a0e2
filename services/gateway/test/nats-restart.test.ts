import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { freePort, startNatsServer, type Running } from '@register/embedded';
import { eventually } from '@register/testkit';
import { startSystem, users, type TestSystem } from './support/system';

// The audit trail survives a broker restart: nothing lost (outbox + durable consumer), nothing doubled
// (Nats-Msg-Id dedupe + insert by event id). This test runs its own nats-server (from the PATH) so it
// can restart it.
describe('audit log across a NATS restart', () => {
  let sys: TestSystem;
  let nats: Running;
  let port: number;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'register-nats-'));

  beforeAll(async () => {
    port = await freePort();
    nats = await startNatsServer(dir, port);
    sys = await startSystem({ nats: nats.url });
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
    await nats?.stop();
  }, 60_000);

  const setFlag = (enabled: boolean, correlationId: string) =>
    fetch(`${sys.gateway}/api/v1/admin/flags/herregistratie-aanvragen`, {
      method: 'PUT',
      headers: { ...users.admin, 'content-type': 'application/json', 'X-Correlation-Id': correlationId },
      body: JSON.stringify({ enabled }),
    });
  const rowsFor = async (correlationId: string) => {
    const res = await fetch(`${sys.gateway}/api/v1/admin/audit?limit=1000`, { headers: users.admin });
    const rows = (await res.json()) as Array<{ correlationId: string; action: string }>;
    return rows.filter((r) => r.correlationId === correlationId);
  };

  it('when NATS restarts right after the write, then the change appears exactly once', async () => {
    const correlationId = `restart-${randomUUID()}`;
    expect((await setFlag(false, correlationId)).status).toBe(204);
    await nats.stop();
    nats = await startNatsServer(dir, port);
    const rows = await eventually(async () => ((await rowsFor(correlationId)).length > 0 ? rowsFor(correlationId) : undefined), 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(rows).toHaveLength(1);
    expect(await rowsFor(correlationId)).toHaveLength(1);
  }, 60_000);

  it('when NATS is down during the write, then the write succeeds and the change appears exactly once after it is back', async () => {
    await nats.stop();
    const correlationId = `down-${randomUUID()}`;
    expect((await setFlag(true, correlationId)).status).toBe(204);
    expect((await fetch(`${sys.gateway}/health/ready`)).status).toBe(503);
    nats = await startNatsServer(dir, port);
    await eventually(async () => ((await rowsFor(correlationId)).length > 0 ? true : undefined), 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await rowsFor(correlationId)).toHaveLength(1);
  }, 90_000);
});
