import { AUDIT_SUBJECTS } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import { insertAuditRow } from '../audit-log/audit-log.repository';
import type { Context } from '../context';
import { insertLogbookRow, isProcessingSubject, toLogbookRow } from '../logbook/logbook-record';
import { toAuditRow } from './audit-event';

/**
 * The durable consumer of every audit event and processing record, as a job of the service. A row is inserted (idempotently by
 * event id) before the ack, so a crash, a NATS restart or a redelivery loses nothing and doubles nothing.
 * Named `consumer`: the readiness check of that name is false while it pulls no messages.
 */
export function auditConsumer(ctx: Context): Job {
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: ctx.config.AUDIT_CONSUMER,
    filter: AUDIT_SUBJECTS,
    logger: ctx.logger.child({ subsystem: 'audit-consumer' }),
    ...ctx.redelivery,
    handle: async (subject, payload) => {
      // Processing records share the audit subjects (one consumer, one ack path) but go to the logbook (ADR 0181).
      if (isProcessingSubject(subject)) {
        const record = toLogbookRow(subject, payload);
        if (!record) return 'malformed';
        await insertLogbookRow(ctx.db, record);
        return 'handled';
      }
      const row = toAuditRow(subject, payload);
      if (!row) return 'malformed';
      await insertAuditRow(ctx.db, row);
      return 'handled';
    },
  });
  return {
    name: 'consumer',
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
