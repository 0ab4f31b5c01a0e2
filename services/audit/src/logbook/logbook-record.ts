import { z } from 'zod';
import {
  MAX_RECORDS_PER_BATCH,
  PROCESSING_BATCH_PREFIX,
  PROCESSING_PREFIX,
  ProcessingRecordData,
  eventEnvelope,
} from '@register/contracts';
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
  return rowOf(parsed.data.id, parsed.data.data, service);
}

// A batch is read as tolerantly as a single record: each record on its own, so one a producer got wrong does not
// cost the others their place in the logbook.
const BatchEnvelope = eventEnvelope(z.object({ records: z.array(z.unknown()).min(1).max(MAX_RECORDS_PER_BATCH) }));
const BatchItem = z.object({ id: z.uuid(), record: ProcessingRecordRead });

/**
 * The rows of a batch of records (ADR 0268) and how many of its records were no well-formed record (dropped, like
 * a malformed single record); null when the message is no batch at all.
 */
export function toLogbookRows(subject: string, payload: unknown): { rows: LogbookRow[]; dropped: number } | null {
  const service = subject.slice(PROCESSING_BATCH_PREFIX.length);
  if (!subject.startsWith(PROCESSING_BATCH_PREFIX) || service.length === 0) return null;
  const parsed = BatchEnvelope.safeParse(payload);
  if (!parsed.success) return null;
  const rows: LogbookRow[] = [];
  for (const item of parsed.data.data.records) {
    const read = BatchItem.safeParse(item);
    if (read.success) rows.push(rowOf(read.data.id, read.data.record, service));
  }
  return { rows, dropped: parsed.data.data.records.length - rows.length };
}

function rowOf(id: string, r: z.infer<typeof ProcessingRecordRead>, service: string): LogbookRow {
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

const ROWS_PER_STATEMENT = 1000;

/**
 * Stores records with one statement per thousand (PostgreSQL takes at most 65 535 parameters in one, and a row has
 * 18), each once per record id (also one that comes twice in `rows`): a redelivered or re-published
 * record changes nothing.
 */
export async function insertLogbookRows(db: Kysely<AuditDb>, rows: readonly LogbookRow[]): Promise<void> {
  const unique = [...new Map(rows.map((row) => [row.record_id, row])).values()];
  for (let at = 0; at < unique.length; at += ROWS_PER_STATEMENT)
    await db
      .insertInto('logbook')
      .values(unique.slice(at, at + ROWS_PER_STATEMENT))
      .onConflict((oc) => oc.column('record_id').doNothing())
      .execute();
}
