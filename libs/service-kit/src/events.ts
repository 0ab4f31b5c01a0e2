import { randomUUID } from 'node:crypto';

/** The envelope of every event on the bus. `id` is also the `Nats-Msg-Id` (publish dedupe). */
export interface EventEnvelope<T = Record<string, unknown>> {
  id: string;
  type: string;
  occurredAt: string;
  correlationId: string | null;
  data: T;
}

/** What services emit for the audit log (AuthzAudit). Never personal data. */
export interface AuditEventData {
  action: string;
  resource: string;
  decision: 'allow' | 'deny' | 'flagged' | 'accepted';
  role: string;
}

export const SUBJECTS = {
  audit: (service: string) => `register.audit.${service}`,
  auditAll: 'register.audit.>',
  flagsChanged: 'register.reference.flag-changed',
  applicationSubmitted: 'register.applications.submitted',
  applicationDecided: 'register.applications.decided',
  changeRequested: 'register.applications.change-requested',
  /** An application (case) was removed by an admin; its documents go too. Carries only the application id. */
  applicationDeleted: 'register.applications.deleted',
} as const;

export function newEvent<T>(type: string, data: T, correlationId: string | null, now = new Date()): EventEnvelope<T> {
  return { id: randomUUID(), type, occurredAt: now.toISOString(), correlationId, data };
}
