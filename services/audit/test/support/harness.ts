import http from 'node:http';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createDatabase, connectEvents, migrateToLatest, newEvent, STREAM_NAME, type AuditEventData, type Database, type EventEnvelope, type Events } from '@register/service-kit';
import { createTestDatabase, natsUrl, serve, TEST_SECRET, type TestDatabase } from '@register/testkit';
import { migrations } from '../../migrations';
import { createApp } from '../../src/app';
import type { AuditDb } from '../../src/data-access/audit.tables';
import { AuditConsumer } from '../../src/events/audit.consumer';

export interface Harness {
  url: string;
  events: Events;
  database: Database<AuditDb>;
  durable: string;
  /** This harness's own audit subject: purged at close, so no other consumer (or run) keeps test rows. */
  subject: string;
  close(): Promise<void>;
}

/**
 * The audit service as it runs in production, on a database of its own and real NATS. Every test file
 * uses its own durable consumer so parallel files never take each other's messages.
 */
export async function startAudit(options: { natsUrl?: string } = {}): Promise<Harness> {
  const logger = pino({ level: 'silent' });
  const testDb: TestDatabase = await createTestDatabase('audit');
  const database = createDatabase<AuditDb>(testDb.url, logger);
  await migrateToLatest(database.db, migrations, logger);
  const events = await connectEvents(options.natsUrl ?? natsUrl(), 'audit-test', logger);
  const durable = `audit-test-${randomUUID().slice(0, 8)}`;
  const subject = `register.audit.${durable}`;
  const consumer = new AuditConsumer({ events, db: database.db, logger, durable, retryDelayMs: 200, restartDelayMs: 200 });
  await consumer.start();
  const readiness = { database: async () => true, events: events.ready, consumer: async () => consumer.isRunning() };
  const app = createApp({ db: database.db, logger, clock: { now: () => new Date() }, internalSecret: TEST_SECRET, readiness });
  const server = await serve(http.createServer(app));
  return {
    url: server.url,
    events,
    database,
    durable,
    subject,
    async close() {
      await server.close();
      await consumer.stop();
      await events.jsm.consumers.delete(STREAM_NAME, durable).catch(() => undefined);
      await events.jsm.streams.purge(STREAM_NAME, { filter: subject }).catch(() => undefined);
      await events.close();
      await database.close();
      await testDb.drop();
    },
  };
}

export function auditEvent(data: Partial<AuditEventData> & { correlationId: string; occurredAt?: Date }): EventEnvelope<AuditEventData> {
  const { correlationId, occurredAt, ...rest } = data;
  return newEvent('audit', { action: 'flag:set', resource: 'flag/x', decision: 'allow', role: 'admin', ...rest }, correlationId, occurredAt);
}

/** Publishes as the outbox relay does: `Nats-Msg-Id` = event id unless another id is forced. */
export async function publish(h: Harness, envelope: EventEnvelope<unknown>, msgID = envelope.id): Promise<number> {
  const ack = await h.events.js.publish(h.subject, JSON.stringify(envelope), { msgID });
  return ack.seq;
}

/** Resolves once the consumer has acknowledged everything up to `seq` (and so has stored or dropped it). */
export async function consumedThrough(events: Events, durable: string, seq: number): Promise<true | undefined> {
  const info = await events.jsm.consumers.info(STREAM_NAME, durable);
  return info.ack_floor.stream_seq >= seq ? true : undefined;
}
