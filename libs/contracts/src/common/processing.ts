import { z } from 'zod';
import { eventContract, type EventContract } from './events';

const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));

/**
 * One record of the processing log in the field names and types of Logboek Dataverwerkingen v1.0: a span of
 * the processing with its activity and its data subject as attributes (ADR 0181). The subject is a pseudonym,
 * never the BSN; `register.door` (the kind of actor) is ours, for the practitioner's inzage.
 */
export const ProcessingRecordData = z.strictObject({
  trace_id: hex(32),
  span_id: hex(16),
  parent_span_id: hex(16).nullable(),
  name: z.string().min(1).max(200),
  status: z.enum(['Unset', 'Ok', 'Error']),
  start_time: z.iso.datetime(),
  end_time: z.iso.datetime(),
  attributes: z.strictObject({
    'dpl.core.processing_activity_id': z.url(),
    'dpl.core.data_subject_id': hex(64),
    'dpl.core.data_subject_id_type': z.literal('BSN'),
    'dpl.core.foreign_operation.trace_id': hex(32).optional(),
    'dpl.core.foreign_operation.span_id': hex(16).optional(),
    'exception.type': z.string().max(200).optional(),
    'exception.message': z.string().max(500).optional(),
    'register.door': z.enum(['zelf', 'medewerker', 'systeem']),
  }),
});
export type ProcessingRecordData = z.infer<typeof ProcessingRecordData>;

/**
 * Every service writes its processing records on its own subject, apart from the audit subjects: the audit service
 * at v1.0.0 takes every `register.audit.>` message as an audit row and drops what is none, so records under it
 * would be lost while audit is behind its producers in a rollout (ADR 0230). Here they wait for a logbook.
 */
export const PROCESSING_PREFIX = 'register.processing.';
/** The filter of the audit service's logbook consumer. */
export const PROCESSING_SUBJECTS = `${PROCESSING_PREFIX}>`;
export const processingRecord = (service: string): EventContract<typeof ProcessingRecordData> =>
  eventContract(`${PROCESSING_PREFIX}${service}`, 'processing', ProcessingRecordData);

/**
 * Several records in one message (ADR 0268): the records a service gathered, each with the id the logbook stores
 * it under (the id it would have had as a message of its own, so a record sent both ways is stored once). On a
 * subject family of its own, which no older logbook consumer takes (ADR 0230): the audit service reads it with a
 * second durable consumer before any producer sends it.
 */
export const PROCESSING_BATCH_PREFIX = 'register.processing-batch.';
/** The filter of the audit service's consumer of record batches. */
export const PROCESSING_BATCH_SUBJECTS = `${PROCESSING_BATCH_PREFIX}>`;
/** The most records one batch carries (a message stays well under NATS's 1 MiB payload limit). */
export const MAX_RECORDS_PER_BATCH = 100;
export const ProcessingBatchData = z.strictObject({
  records: z
    .array(z.strictObject({ id: z.uuid(), record: ProcessingRecordData }))
    .min(1)
    .max(MAX_RECORDS_PER_BATCH),
});
export type ProcessingBatchData = z.infer<typeof ProcessingBatchData>;
export const processingBatch = (service: string): EventContract<typeof ProcessingBatchData> =>
  eventContract(`${PROCESSING_BATCH_PREFIX}${service}`, 'processing-batch', ProcessingBatchData);
