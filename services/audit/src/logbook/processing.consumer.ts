import { PROCESSING_SUBJECTS } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { insertLogbookRow, insertLogbookRows, toLogbookRow } from './logbook-record';

/** The logbook consumer's durable name: the audit consumer's with a suffix, so a system's consumers stay its own. */
export const processingDurable = (auditConsumer: string): string => `${auditConsumer}_processing`;

/**
 * The durable consumer of every processing record (ADR 0181), apart from the audit consumer: the records have
 * subjects of their own (ADR 0230), and this consumer, made with `DeliverPolicy.All`, also takes those written
 * before it first ran. Rows are inserted (idempotently by record id) before the ack, a batch of records with one
 * statement.
 */
export function processingConsumer(ctx: Context): Job {
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: processingDurable(ctx.config.AUDIT_CONSUMER),
    filter: PROCESSING_SUBJECTS,
    logger: ctx.logger.child({ subsystem: 'processing-consumer' }),
    ...ctx.redelivery,
    handle: async (subject, payload) => {
      const record = toLogbookRow(subject, payload);
      if (!record) return 'malformed';
      await insertLogbookRow(ctx.db, record);
      return 'handled';
    },
    // Records come many at a time (every read writes one): stored with one statement per batch, gathered for
    // 250 ms so that a steady stream of reads does not cost the database a statement and a commit each (at 200
    // reads a second, 50 records a commit; the 5 s within which a practitioner sees a record is kept, ADR 0266).
    batchWindowMs: 250,
    handleBatch: async (events) => {
      const rows = events.map(({ subject, payload }) => toLogbookRow(subject, payload));
      await insertLogbookRows(
        ctx.db,
        rows.filter((row) => row !== null),
      );
      return rows.map((row) => (row ? 'handled' : 'malformed'));
    },
  });
  return {
    name: 'processing-consumer',
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
