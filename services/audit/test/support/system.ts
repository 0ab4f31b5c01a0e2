import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { Kysely } from 'kysely';
import { newEvent, type AuditEventData, type EventEnvelope, type Events } from '@register/service-kit';
import { natsUrl, startService, testEvents, type TestDatabase, type TestService } from '@register/testkit';
import { start } from '../../src/main';
import type { Context } from '../../src/context';
import type { AuditDb } from '../../src/database';
import { processingBatchDurable, processingDurable } from '../../src/logbook/processing.consumer';

export interface AuditSystem extends TestService<Context> {
  events: Events;
  db: Kysely<AuditDb>;
  durable: string;
  /** This system's own audit subject, which only its tests publish on. */
  subject: string;
  /** Its own processing-record subject (`register.processing.<durable>`). */
  processingSubject: string;
  /** The logbook consumer's durable name (the audit consumer's with its suffix). */
  processingDurable: string;
  /** Its own subject for batches of records (`register.processing-batch.<durable>`, ADR 0268). */
  processingBatchSubject: string;
  /** The durable name of the consumer of record batches. */
  processingBatchDurable: string;
}

/**
 * The audit service as it runs in production (its own `runService`), on a database of its own and real NATS.
 * Every test file uses its own durable consumer so parallel files never take each other's messages; its
 * redeliveries come after 200 ms instead of seconds.
 */
export async function startAuditSystem(
  options: {
    natsUrl?: string;
    restartOf?: { durable: string; database: TestDatabase };
    /** The consumer name to start with (a test that publishes before the service first runs); else a new one. */
    durable?: string;
  } = {},
): Promise<AuditSystem> {
  const durable = options.restartOf?.durable ?? options.durable ?? `audit-test-${randomUUID().slice(0, 8)}`;
  const subject = `register.audit.${durable}`;
  const processingSubject = `register.processing.${durable}`;
  const nats = options.natsUrl ?? natsUrl();
  const service = await startService(start, {
    name: 'audit',
    env: { NATS_URL: nats, AUDIT_CONSUMER: durable },
    override: (ctx: Context) => ({ ...ctx, redelivery: { retryDelayMs: 200, restartDelayMs: 200 } }),
    ...(options.restartOf ? { database: options.restartOf.database } : {}),
  });
  return {
    ...service,
    events: service.context.events as Events,
    db: service.context.db,
    durable,
    subject,
    processingSubject,
    processingDurable: processingDurable(durable),
    processingBatchSubject: `register.processing-batch.${durable}`,
    processingBatchDurable: processingBatchDurable(durable),
    async close() {
      await service.close();
      await removeConsumer(nats, durable);
      await removeConsumer(nats, processingDurable(durable));
      await removeConsumer(nats, processingBatchDurable(durable));
    },
  };
}

/**
 * After the service stopped (its connection is closed): its durable consumer goes. Its test messages stay until
 * the run's stream is deleted (the jest teardown): a purge by subject would, on nats-server before 2.9.15
 * (Debian's is 2.9.10), move every consumer of the stream past its pending messages, and another file's consumer
 * waiting to redeliver an event would never see it again (nats-io/nats-server#3838, #3892).
 */
async function removeConsumer(url: string, durable: string): Promise<void> {
  const nc = await connect({ servers: url, name: 'audit-test-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.delete(testEvents().stream, durable).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

export function auditEvent(
  data: Partial<AuditEventData> & { correlationId: string; occurredAt?: Date },
): EventEnvelope<AuditEventData> {
  const { correlationId, occurredAt, ...rest } = data;
  return newEvent(
    'audit',
    { action: 'flag:set', resource: 'flag/x', decision: 'allow', role: 'admin', ...rest },
    correlationId,
    occurredAt,
  );
}

/** Publishes as the outbox relay does: `Nats-Msg-Id` = event id unless another id is forced. */
export async function publish(h: AuditSystem, envelope: EventEnvelope<unknown>, msgID = envelope.id): Promise<number> {
  const ack = await h.events.js.publish(h.events.prefix + h.subject, JSON.stringify(envelope), { msgID });
  return ack.seq;
}

/** Resolves once the consumer has acknowledged everything up to `seq` (and so has stored or dropped it). */
export async function consumedThrough(events: Events, durable: string, seq: number): Promise<true | undefined> {
  const info = await events.jsm.consumers.info(events.stream, durable);
  return info.ack_floor.stream_seq >= seq ? true : undefined;
}
