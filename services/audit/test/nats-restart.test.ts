import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { freePort, hasNatsServer, startNatsServer, type Running } from '@register/embedded';
import { asUser, eventually, holdLock, practitioner } from '@register/testkit';
import { auditEvent, consumedThrough, publish, startAuditSystem, type AuditSystem } from './support/system';

// A NATS server of this file's own, so restarting it disturbs no other suite.
let dir: string;
let port: number;
let nats: Running;
let h: AuditSystem;
beforeAll(async () => {
  // Found as `npm start` finds it (on the PATH); without it this test cannot restart a NATS of its own.
  if (!hasNatsServer()) {
    throw new Error(
      'nats-server is not on the PATH: this test stops and starts a NATS server of its own ' +
        'and cannot run without the binary (install nats-server, as npm start would use it).',
    );
  }
  dir = mkdtempSync(path.join(os.tmpdir(), 'audit-nats-'));
  port = await freePort();
  nats = await startNatsServer(dir, port);
  h = await startAuditSystem({ natsUrl: nats.url });
});
afterAll(async () => {
  await h?.close();
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const admin = asUser(practitioner('900000001', 'admin'));

async function rowsOf(correlationId: string): Promise<unknown[]> {
  const res = await fetch(`${h.url}/api/v1/admin/audit?correlationId=${correlationId}`, { headers: admin });
  return (await res.json()) as unknown[];
}

describe('the audit consumer across a NATS restart', () => {
  it(
    'when NATS restarts after an event was read and before it was stored, ' +
      'then every event is stored exactly once and consuming resumes',
    async () => {
      const correlationId = `corr-restart-${randomUUID()}`;
      const before = auditEvent({ correlationId, action: 'flag:set' });
      // The consumer's insert waits on this test's lock: the event is read from the stream, not stored or acknowledged.
      const hold = await holdLock(h.databaseUrl, 'LOCK TABLE authz_audit IN SHARE MODE');
      const seq = await publish(h, before);
      await hold.waiting();
      expect(await consumedThrough(h.events, h.durable, seq)).toBeUndefined();

      await nats.stop();
      nats = await startNatsServer(dir, port);
      await hold.release();

      const after = auditEvent({ correlationId, action: 'orgtemplate:edit' });
      // The client is reconnecting; the outbox relay would retry the same way.
      await eventually(async () => publish(h, after), 20000, 250);
      const again = await eventually(async () => publish(h, before, `${before.id}-again`), 20000, 250);
      // An acknowledgement lost with the old connection comes again after the consumer's ack wait (30 s).
      await eventually(() => consumedThrough(h.events, h.durable, again), 60_000, 250);

      const rows = await rowsOf(correlationId);
      expect(rows.map((r) => (r as { action: string }).action).sort()).toEqual(['flag:set', 'orgtemplate:edit']);
      const ready = await eventually(async () =>
        (await fetch(`${h.url}/health/ready`)).status === 200 ? true : undefined,
      );
      expect(ready).toBe(true);
    },
    120_000,
  );
});
