import { createHmac } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  ProcessingRecordData,
  processingRecord,
  verwerkingsactiviteit,
  type ActiviteitSleutel,
} from '@register/contracts';
import { enqueue, type WithOutbox } from './outbox';
import { activeSpanIds, newId } from './telemetry/trace-context';

/**
 * The data subject's pseudonym in the processing log: HMAC-SHA256 of the BSN under the deployment's
 * `LDV_PSEUDONYM_SECRET` (ADR 0181). The same BSN gives the same pseudonym under one secret, so the audit service
 * finds a practitioner's records by computing it; without the secret the BSN cannot be recovered from it.
 */
export function pseudonymOf(bsn: string, secret: string): string {
  return createHmac('sha256', secret).update(bsn, 'utf8').digest('hex');
}

/** One processing of one data subject's personal data, as the kit logs it. */
export interface ProcessingStep {
  activity: ActiviteitSleutel;
  /** The BSN of the data subject; only its pseudonym leaves this function. */
  subject: string;
  door: 'zelf' | 'medewerker' | 'systeem';
  /** What was done (`POST /api/v1/applications/:id/submit`, `case-mirror create-zaak`). */
  name: string;
  start: Date;
  end: Date;
  error?: unknown;
  /** The `traceparent` another application sent with the call, when it did. */
  foreignTraceparent?: string;
}

/** The record of a step in the standard's field names, in the active trace (a new trace outside any). */
export function processingRecordOf(step: ProcessingStep, secret: string): ProcessingRecordData {
  const active = activeSpanIds();
  const foreign = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(step.foreignTraceparent ?? '');
  const failed = step.error !== undefined;
  return ProcessingRecordData.parse({
    trace_id: active?.traceId ?? newId(16),
    span_id: newId(8),
    parent_span_id: active?.spanId ?? null,
    name: step.name.slice(0, 200),
    status: failed ? 'Error' : 'Ok',
    start_time: step.start.toISOString(),
    end_time: step.end.toISOString(),
    attributes: {
      'dpl.core.processing_activity_id': verwerkingsactiviteit(step.activity).id,
      'dpl.core.data_subject_id': pseudonymOf(step.subject, secret),
      'dpl.core.data_subject_id_type': 'BSN',
      ...(foreign
        ? { 'dpl.core.foreign_operation.trace_id': foreign[1], 'dpl.core.foreign_operation.span_id': foreign[2] }
        : {}),
      // The error's kind and message only: messages of our own errors name no personal data.
      ...(failed ? exceptionOf(step.error) : {}),
      'register.door': step.door,
    },
  });
}

function exceptionOf(error: unknown): Record<string, string> {
  const e = error instanceof Error ? error : new Error(String(error));
  return { 'exception.type': e.name.slice(0, 200), 'exception.message': e.message.slice(0, 500) };
}

/**
 * Writes the record of a step through the outbox in the caller's transaction: published only when that
 * transaction commits, so a write that rolls back logs nothing and a crash after the commit loses nothing.
 */
export async function logProcessing<DB extends WithOutbox>(
  trx: Transaction<DB> | Kysely<DB>,
  service: string,
  secret: string,
  step: ProcessingStep,
  correlationId: string | null,
): Promise<ProcessingRecordData> {
  const record = processingRecordOf(step, secret);
  await enqueue(trx, processingRecord(service), record, correlationId);
  return record;
}
