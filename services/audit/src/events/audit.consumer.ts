import type { Kysely } from 'kysely';
import { DurableConsumer, SUBJECTS, type DurableConsumerOptions, type Logger } from '@register/service-kit';
import type { AuditDb } from '../data-access/audit.tables';
import { toAuditRow } from '../domain/audit-event';
import { recordAuditEvent } from '../domain/audit-trail';

export interface AuditConsumerOptions {
  events: DurableConsumerOptions['events'];
  db: Kysely<AuditDb>;
  logger: Logger;
  /** Durable consumer name; one per deployment (tests use their own so files do not share messages). */
  durable: string;
  retryDelayMs?: number;
  restartDelayMs?: number;
}

/**
 * Durable consumer of every audit event. A row is inserted (idempotently by event id) before the ack, so a
 * crash, a NATS restart or a redelivery loses nothing and doubles nothing.
 */
export class AuditConsumer extends DurableConsumer {
  constructor(options: AuditConsumerOptions) {
    super({
      events: options.events,
      durable: options.durable,
      filter: SUBJECTS.auditAll,
      logger: options.logger,
      retryDelayMs: options.retryDelayMs,
      restartDelayMs: options.restartDelayMs,
      handle: async (subject, payload) => {
        const row = toAuditRow(subject, payload);
        if (!row) return 'malformed';
        await recordAuditEvent(options.db, row);
        return 'handled';
      },
    });
  }
}
