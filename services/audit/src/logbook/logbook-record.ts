import { z } from 'zod';
import { PROCESSING_PREFIX, ProcessingRecordData, eventEnvelope } from '@register/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { AuditDb } from '../database';
import type { LogbookTable } from './logbook.table';

export type LogbookRow = Selectable<LogbookTable>;

// The contract's record is strict for its producers (no attribute outside Logboek Dataverwerkingen leaves a
// service); read here, a field a later version adds is dropped, not a reason to refuse the record (ADR 0228).
const ProcessingRecordRead = z.object({
  ...ProcessingRecordData.shape,
  attributes: z.object(ProcessingRecordData.shape.attributes.shape),
});
const ProcessingEnvelope = eventEnvelope(ProcessingRecordRead).extend({ id: z.uuid() });

export const isProcessingSubject = (subject: string): boolean => subject.startsWith(PROCESSING_PREFIX);

/** A processing record's row, or null when the message is no well-formed record (never retried). */
export function toLogbookRow(subject: string, payload: unknown): LogbookRow | null {
  const service = subject.slice(PROCESSING_PREFIX.length);
  if (!isProcessingSubject(subject) || service.length === 0) return null;
  const parsed = ProcessingEnvelope.safeParse(payload);
  if (!parsed.success) return null;
  const { id, data: r } = parsed.data;
  const a = r.attributes;
  return {
    record_id: id,
    trace_id: r.trace_id,
    span_id: r.span_id,
    parent_span_id: r.parent_span_id,
    name: r.name,
    status: r.status,
    start_time: new Date(r.start_time),
    end_time: new Date(r.end_time),
    processing_activity_id: a['dpl.core.processing_activity_id'],
    data_subject_id: a['dpl.core.data_subject_id'],
    data_subject_id_type: a['dpl.core.data_subject_id_type'],
    foreign_trace_id: a['dpl.core.foreign_operation.trace_id'] ?? null,
    foreign_span_id: a['dpl.core.foreign_operation.span_id'] ?? null,
    exception_type: a['exception.type'] ?? null,
    exception_message: a['exception.message'] ?? null,
    door: a['register.door'],
    service,
  };
}

/** Stores a record once per record id: a redelivered or re-published record changes nothing. */
export async function insertLogbookRow(db: Kysely<AuditDb>, row: LogbookRow): Promise<void> {
  await insertLogbookRows(db, [row]);
}

/** Stores records with one statement, each once per record id (also one that comes twice in `rows`). */
export async function insertLogbookRows(db: Kysely<AuditDb>, rows: readonly LogbookRow[]): Promise<void> {
  const unique = [...new Map(rows.map((row) => [row.record_id, row])).values()];
  if (unique.length === 0) return;
  await db
    .insertInto('logbook')
    .values(unique)
    .onConflict((oc) => oc.column('record_id').doNothing())
    .execute();
}
