import { PROCESSING_BATCH_SUBJECTS, PROCESSING_SUBJECTS } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { insertLogbookRow, insertLogbookRows, toLogbookRow, toLogbookRows, type LogbookRow } from './logbook-record';

/** The logbook consumer's durable name: the audit consumer's with a suffix, so a system's consumers stay its own. */
export const processingDurable = (auditConsumer: string): string => `${auditConsumer}_processing`;
/** The durable name of the consumer of record batches (ADR 0268). */
export const processingBatchDurable = (auditConsumer: string): string => `${auditConsumer}_processing_batches`;

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

/**
 * The durable consumer of record batches (ADR 0268): several records in one message, on subjects no older logbook
 * consumer takes (nats-server 2.9 filters a consumer on one subject, so this is a consumer of its own). Made with
 * `DeliverPolicy.All` like the other, so batches sent before it first ran are stored too. Each record is stored
 * once per record id, whichever way it came; a record in a batch that is no well-formed record is dropped and
 * counted in the log line (its content is personal data's pseudonym and stays out of the log).
 */
export function processingBatchConsumer(ctx: Context): Job {
  const logger = ctx.logger.child({ subsystem: 'processing-batch-consumer' });
  const rowsOf = (subject: string, payload: unknown): LogbookRow[] | null => {
    const batch = toLogbookRows(subject, payload);
    if (batch?.dropped) logger.error({ subject, dropped: batch.dropped }, 'malformed records of a batch dropped');
    return batch?.rows ?? null;
  };
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: processingBatchDurable(ctx.config.AUDIT_CONSUMER),
    filter: PROCESSING_BATCH_SUBJECTS,
    logger,
    ...ctx.redelivery,
    handle: async (subject, payload) => {
      const rows = rowsOf(subject, payload);
      if (!rows) return 'malformed';
      await insertLogbookRows(ctx.db, rows);
      return 'handled';
    },
    batchWindowMs: 250,
    handleBatch: async (events) => {
      const batches = events.map(({ subject, payload }) => rowsOf(subject, payload));
      await insertLogbookRows(
        ctx.db,
        batches.flatMap((rows) => rows ?? []),
      );
      return batches.map((rows) => (rows ? 'handled' : 'malformed'));
    },
  });
  return {
    name: 'processing-batch-consumer',
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
