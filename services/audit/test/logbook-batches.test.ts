import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { processingBatch, type ProcessingBatchData } from '@register/contracts';
import { newEvent, pseudonymOf, processingRecordOf, type ProcessingStep } from '@register/service-kit';
import {
  TEST_LDV_SECRET,
  asUser,
  eventually,
  natsUrl,
  practitioner,
  testEvents,
  uniqueSubject,
} from '@register/testkit';
import { consumedThrough, startAuditSystem, type AuditSystem } from './support/system';

// ADR 0268: several processing records in one message, on `register.processing-batch.<service>`, which the audit
// service stores before any producer sends them (expand first, ADR 0230).

let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(async () => h?.close());

function step(subject: string, name: string): ProcessingStep {
  const at = new Date('2026-11-28T10:00:00.000Z');
  return { activity: 'inzage-registratie', subject, door: 'zelf', name, start: at, end: at };
}

const item = (s: ProcessingStep, id: string = randomUUID()) => ({ id, record: processingRecordOf(s, TEST_LDV_SECRET) });

/** A batch as a producer will publish it: the contract's data, checked by its schema, under `Nats-Msg-Id`. */
async function publishBatch(system: AuditSystem, data: unknown): Promise<number> {
  const envelope = newEvent('processing-batch', data as ProcessingBatchData, null);
  const ack = await system.events.js.publish(
    system.events.prefix + system.processingBatchSubject,
    JSON.stringify(envelope),
    { msgID: envelope.id },
  );
  return ack.seq;
}

async function stored(system: AuditSystem, bsn: string): Promise<Array<{ record_id: string; name: string }>> {
  return system.db
    .selectFrom('logbook')
    .select(['record_id', 'name'])
    .where('data_subject_id', '=', pseudonymOf(bsn, TEST_LDV_SECRET))
    .orderBy('name')
    .execute();
}

describe('batches of processing records (ADR 0268)', () => {
  it(
    'when a batch arrives that repeats a record already sent alone, then each record is stored once under its ' +
      'own id and its practitioner reads them all',
    async () => {
      const bsn = uniqueSubject();
      const alone = newEvent('processing', processingRecordOf(step(bsn, 'a'), TEST_LDV_SECRET), null);
      const first = await h.events.js.publish(h.events.prefix + h.processingSubject, JSON.stringify(alone), {
        msgID: alone.id,
      });
      await eventually(() => consumedThrough(h.events, h.processingDurable, first.seq));
      const data = processingBatch('applications').data.parse({
        records: [{ id: alone.id, record: alone.data }, item(step(bsn, 'b')), item(step(bsn, 'c'))],
      });
      const seq = await publishBatch(h, data);
      await eventually(() => consumedThrough(h.events, h.processingBatchDurable, seq));

      const rows = await stored(h, bsn);
      expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'c']);
      expect(rows.map((r) => r.record_id).sort()).toEqual(data.records.map((r) => r.id).sort());
      const res = await fetch(`${h.url}/api/v1/me/verwerkingen`, { headers: asUser(practitioner(bsn)) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(3);
    },
  );

  it('when a batch holds a record that is no well-formed record, then the others are stored, it not', async () => {
    const bsn = uniqueSubject();
    const bad = { id: randomUUID(), record: { trace_id: 'nope' } };
    const seq = await publishBatch(h, { records: [item(step(bsn, 'first')), bad, item(step(bsn, 'last'))] });
    await eventually(() => consumedThrough(h.events, h.processingBatchDurable, seq));
    expect((await stored(h, bsn)).map((r) => r.name)).toEqual(['first', 'last']);
    expect(await h.db.selectFrom('logbook').select('record_id').where('record_id', '=', bad.id).execute()).toEqual([]);
  });

  it('when a message on the batch subject is no batch, then none of it is stored and the next batch is', async () => {
    const bsn = uniqueSubject();
    // A record under a key the contract does not have, and more records than a batch may carry.
    await publishBatch(h, { items: [item(step(bsn, 'misnamed'))] });
    await publishBatch(h, { records: Array.from({ length: 101 }, (_, i) => item(step(bsn, `too many ${i}`))) });
    const after = await publishBatch(h, { records: [item(step(bsn, 'next'))] });
    await eventually(() => consumedThrough(h.events, h.processingBatchDurable, after));
    expect((await stored(h, bsn)).map((r) => r.name)).toEqual(['next']);
  });

  it('when batches were sent before the audit service first ran, then it stores them once it runs', async () => {
    const durable = `audit-test-${randomUUID().slice(0, 8)}`;
    const bsn = uniqueSubject();
    const nc = await connect({ servers: natsUrl(), name: 'audit-test-early-producer' });
    let seq: number;
    try {
      const envelope = newEvent('processing-batch', { records: [item(step(bsn, 'early'))] }, null);
      const ack = await jetstream(nc).publish(
        `${testEvents().prefix}register.processing-batch.${durable}`,
        JSON.stringify(envelope),
        { msgID: envelope.id },
      );
      seq = ack.seq;
    } finally {
      await nc.close();
    }
    const later = await startAuditSystem({ durable });
    try {
      await eventually(() => consumedThrough(later.events, later.processingBatchDurable, seq));
      expect((await stored(later, bsn)).map((r) => r.name)).toEqual(['early']);
    } finally {
      await later.close();
    }
  });
});
