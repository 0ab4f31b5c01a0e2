import { randomUUID } from 'node:crypto';
import { AUDIT_SUBJECTS, applications, auditEvent, reference, type AuditEventData, type EventEnvelope } from '@register/contracts';

export type { AuditEventData, EventEnvelope };

/** @deprecated use the event contracts of `@register/contracts/<context>`; kept while services move over. */
export const SUBJECTS = {
  audit: (service: string) => auditEvent(service).subject,
  auditAll: AUDIT_SUBJECTS,
  flagsChanged: reference.events.flagChanged.subject,
  applicationSubmitted: applications.events.submitted.subject,
  applicationDecided: applications.events.decided.subject,
  changeRequested: applications.events.changeRequested.subject,
  applicationDeleted: applications.events.deleted.subject,
} as const;

export function newEvent<T>(type: string, data: T, correlationId: string | null, now = new Date()): EventEnvelope<T> {
  return { id: randomUUID(), type, occurredAt: now.toISOString(), correlationId, data };
}
