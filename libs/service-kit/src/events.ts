import { randomUUID } from 'node:crypto';
import type { AuditEventData, EventEnvelope } from '@register/contracts';

export type { AuditEventData, EventEnvelope };

export function newEvent<T>(type: string, data: T, correlationId: string | null, now = new Date()): EventEnvelope<T> {
  return { id: randomUUID(), type, occurredAt: now.toISOString(), correlationId, data };
}
