import { z } from 'zod';
import { AUDIT_SUBJECTS, AuditEventData, eventEnvelope } from '@register/contracts';
import type { AuditRow } from '../audit-log/audit-log.repository';

const AUDIT_PREFIX = AUDIT_SUBJECTS.slice(0, -1);

/** The contract's audit envelope, narrowed to what a row can hold: the id is its uuid key, `occurredAt` its time. */
const AuditEnvelope = eventEnvelope(AuditEventData).extend({
  id: z.uuid(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().max(128).nullable(),
});

/**
 * Turns an audit event (`register.audit.<service>`) into its row, or null when it is not a well-formed
 * audit envelope; such a message can never succeed, so it is not retried.
 */
export function toAuditRow(subject: string, payload: unknown): AuditRow | null {
  if (!subject.startsWith(AUDIT_PREFIX) || subject.length === AUDIT_PREFIX.length) return null;
  const parsed = AuditEnvelope.safeParse(payload);
  if (!parsed.success) return null;
  const { id, occurredAt, correlationId, data } = parsed.data;
  return {
    event_id: id,
    at: new Date(occurredAt),
    action: data.action,
    resource: data.resource,
    decision: data.decision,
    role: data.role,
    correlation_id: correlationId,
    service: subject.slice(AUDIT_PREFIX.length),
  };
}
