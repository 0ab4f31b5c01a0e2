import { PROCESSING_BATCH_SUBJECTS, PROCESSING_SUBJECTS } from '@register/contracts';
import { DurableConsumer, type Job, type Logger } from '@register/service-kit';
import type { Context } from '../context';
import { insertLogbookRows, toLogbookRow, toLogbookRows, type LogbookRow } from './logbook-record';

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
  return logbookConsumer(ctx, {
    name: 'processing-consumer',
    durable: processingDurable(ctx.config.AUDIT_CONSUMER),
    filter: PROCESSING_SUBJECTS,
    rowsOf: () => (subject, payload) => {
      const row = toLogbookRow(subject, payload);
      return row ? [row] : null;
    },
  });
}

/**
 * The durable consumer of record batches (ADR 0268): several records in one message, on subjects no older logbook
 * consumer takes (nats-server 2.9 filters a consumer on one subject, so this is a consumer of its own). Made with
 * `DeliverPolicy.All` like the other, so batches sent before it first ran are stored too. Each record is stored
 * once per record id, whichever way it came; a record in a batch that is no well-formed record is dropped and
 * counted in the log line (its content is personal data's pseudonym and stays out of the log).
 */
export function processingBatchConsumer(ctx: Context): Job {
  return logbookConsumer(ctx, {
    name: 'processing-batch-consumer',
    durable: processingBatchDurable(ctx.config.AUDIT_CONSUMER),
    filter: PROCESSING_BATCH_SUBJECTS,
    rowsOf: (logger) => (subject, payload) => {
      const batch = toLogbookRows(subject, payload);
      if (batch?.dropped) logger.error({ subject, dropped: batch.dropped }, 'malformed records of a batch dropped');
      return batch?.rows ?? null;
    },
  });
}

/**
 * A durable consumer that stores the logbook rows of its messages (null: a message that is no record, dropped),
 * each once by record id, before the ack. Records come many at a time (every read writes one): what arrived together
 * is stored with one statement, gathered for 250 ms so that a steady stream of reads does not cost the database a
 * statement and a commit each (at 200 reads a second, 50 records a commit; the 5 s within which a practitioner sees
 * a record is kept, ADR 0266).
 */
function logbookConsumer(
  ctx: Context,
  options: {
    name: string;
    durable: string;
    filter: string;
    rowsOf: (logger: Logger) => (subject: string, payload: unknown) => LogbookRow[] | null;
  },
): Job {
  const logger = ctx.logger.child({ subsystem: options.name });
  const rowsOf = options.rowsOf(logger);
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: options.durable,
    filter: options.filter,
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
      const found = events.map(({ subject, payload }) => rowsOf(subject, payload));
      await insertLogbookRows(
        ctx.db,
        found.flatMap((rows) => rows ?? []),
      );
      return found.map((rows) => (rows ? 'handled' : 'malformed'));
    },
  });
  return {
    name: options.name,
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
