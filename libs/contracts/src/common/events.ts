import { z } from 'zod';

/** The envelope of every event on the bus. `id` is also the `Nats-Msg-Id` (publish dedupe). */
export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: string;
  occurredAt: string;
  correlationId: string | null;
  /** W3C `traceparent` of the request that wrote the event, so that its consumers continue that trace. */
  traceparent?: string;
  data: T;
}

export const eventEnvelope = <T extends z.ZodType>(data: T) =>
  z.object({
    id: z.string().min(1),
    type: z.string(),
    occurredAt: z.string(),
    correlationId: z.string().nullable(),
    traceparent: z.string().optional().catch(undefined),
    data,
  });

/**
 * An event a context publishes: its subject, its `type` and the zod schema of its data (consumers validate with it).
 */
export interface EventContract<T extends z.ZodType = z.ZodType> {
  subject: string;
  type: string;
  data: T;
}

export function eventContract<T extends z.ZodType>(subject: string, type: string, data: T): EventContract<T> {
  return { subject, type, data };
}

/** What services emit for the audit log (AuthzAudit). Never personal data. */
export const AuditEventData = z.object({
  action: z.string().min(1).max(100),
  resource: z.string().min(1).max(300),
  decision: z.enum(['allow', 'deny', 'flagged', 'accepted']),
  role: z.string().min(1).max(200),
});
export type AuditEventData = z.infer<typeof AuditEventData>;

/** Every service writes its audit events on its own subject; the audit service consumes them all. */
export const auditEvent = (service: string): EventContract<typeof AuditEventData> =>
  eventContract(`register.audit.${service}`, 'audit', AuditEventData);
export const AUDIT_SUBJECTS = 'register.audit.>';
