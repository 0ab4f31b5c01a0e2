import { z } from 'zod';
import { SUBJECTS } from '@register/service-kit';
import type { AuditRow } from '../data-access/audit.repository';

const AUDIT_PREFIX = SUBJECTS.auditAll.slice(0, -1);

const AuditEnvelope = z.object({
  id: z.uuid(),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().max(128).nullable(),
  data: z.object({
    action: z.string().min(1).max(200),
    resource: z.string().max(500),
    decision: z.string().min(1).max(50),
    role: z.string().min(1).max(200),
  }),
});

/**
 * Turns an audit event (`register.audit.<service>`) into its row, or null when it is not a
 * well-formed audit envelope; such a message can never succeed, so it is not retried.
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
