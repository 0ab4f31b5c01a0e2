import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, hasNatsServer, startNatsServer, type Running } from '@register/embedded';
import { newEvent, pseudonymOf, processingRecordOf, type ProcessingStep } from '@register/service-kit';
import { TEST_LDV_SECRET, eventually, holdLock, uniqueSubject } from '@register/testkit';
import { consumedThrough, startAuditSystem, type AuditSystem } from './support/system';

// Issue 24: no processing record is lost or stored twice when NATS restarts between reading and storing it, or
// when the audit service is down while records are published. A NATS server of this file's own.
let dir: string;
let port: number;
let nats: Running;
beforeAll(async () => {
  if (!hasNatsServer()) {
    throw new Error(
      'nats-server is not on the PATH: this test restarts a NATS server of its own (install nats-server).',
    );
  }
  dir = mkdtempSync(path.join(os.tmpdir(), 'audit-logbook-'));
  port = await freePort();
  nats = await startNatsServer(dir, port);
});
afterAll(async () => {
  await nats?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function step(subject: string, name: string): ProcessingStep {
  const at = new Date();
  return { activity: 'aanvragen', subject, door: 'zelf', name, start: at, end: at };
}

/** Publishes a record as a service's outbox relay does (`Nats-Msg-Id` = the envelope id). */
async function publishRecord(h: AuditSystem, s: ProcessingStep, msgID?: string): Promise<number> {
  const envelope = newEvent('processing', processingRecordOf(s, TEST_LDV_SECRET), null);
  const body = JSON.stringify(envelope);
  const ack = await h.events.js.publish(h.events.prefix + h.processingSubject, body, { msgID: msgID ?? envelope.id });
  return ack.seq;
}

async function storedNames(h: AuditSystem, bsn: string): Promise<string[]> {
  const rows = await h.db
    .selectFrom('logbook')
    .select('name')
    .where('data_subject_id', '=', pseudonymOf(bsn, TEST_LDV_SECRET))
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

describe('the logbook across restarts (issue 24)', () => {
  it(
    'when NATS restarts after a record was read and before it was stored, then every ' +
      'record is stored exactly once',
    async () => {
      const h = await startAuditSystem({ natsUrl: nats.url });
      try {
        const bsn = uniqueSubject();
        // The consumer's insert waits on this test's lock: the record is read from the stream, not stored or acked.
        const hold = await holdLock(h.databaseUrl, 'LOCK TABLE logbook IN SHARE MODE');
        const seq = await publishRecord(h, step(bsn, 'before'));
        await hold.waiting();
        expect(await consumedThrough(h.events, h.processingDurable, seq)).toBeUndefined();

        await nats.stop();
        nats = await startNatsServer(dir, port);
        await hold.release();

        const after = await eventually(async () => publishRecord(h, step(bsn, 'after')), 20_000, 250);
        // An acknowledgement lost with the old connection comes again after the consumer's ack wait (30 s).
        await eventually(() => consumedThrough(h.events, h.processingDurable, after), 60_000, 250);
        expect(await storedNames(h, bsn)).toEqual(['after', 'before']);
      } finally {
        await h.close();
      }
    },
    120_000,
  );

  it(
    'when records are published while the audit service is down, then after its ' +
      'restart each is stored exactly once',
    async () => {
      const first = await startAuditSystem({ natsUrl: nats.url });
      const bsn = uniqueSubject();
      const stored = await publishRecord(first, step(bsn, 'while up'));
      await eventually(() => consumedThrough(first.events, first.processingDurable, stored));
      await first.stop();

      // The outbox relays of the other services keep publishing; one record is published twice (a relay retry).
      const nc = await connect({ servers: nats.url, name: 'audit-test-publisher' });
      try {
        const js = jetstream(nc);
        const target = first.events.prefix + first.processingSubject;
        for (const name of ['down 1', 'down 2', 'down 3']) {
          const envelope = newEvent('processing', processingRecordOf(step(bsn, name), TEST_LDV_SECRET), null);
          await js.publish(target, JSON.stringify(envelope), { msgID: envelope.id });
        }
        const again = newEvent('processing', processingRecordOf(step(bsn, 'down 3 again'), TEST_LDV_SECRET), null);
        for (const msgID of [again.id, `${again.id}-retry`]) await js.publish(target, JSON.stringify(again), { msgID });
      } finally {
        await nc.close();
      }

      const restarted = await startAuditSystem({
        natsUrl: nats.url,
        restartOf: { durable: first.durable, database: { url: first.databaseUrl, drop: () => first.close() } },
      });
      try {
        const expected = ['down 1', 'down 2', 'down 3', 'down 3 again', 'while up'];
        const found = await eventually(async () => {
          const got = await storedNames(restarted, bsn);
          return got.length >= expected.length ? got : undefined;
        }, 30_000);
        expect(found).toEqual(expected);
      } finally {
        await restarted.close();
      }
    },
    120_000,
  );
});
