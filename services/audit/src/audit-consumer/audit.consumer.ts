import { AUDIT_SUBJECTS } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import { insertAuditRow } from '../audit-log/audit-log.repository';
import type { Context } from '../context';
import { toAuditRow } from './audit-event';

/**
 * The durable consumer of every audit event, as a job of the service. A row is inserted (idempotently by event id)
 * before the ack, so a crash, a NATS restart or a redelivery loses nothing and doubles nothing. Processing records
 * have a consumer of their own (logbook/processing.consumer.ts).
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
