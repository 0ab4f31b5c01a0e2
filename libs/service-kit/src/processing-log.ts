import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  type EventEnvelope,
  processingRecord,
  verwerkingsactiviteit,
  type ActiviteitSleutel,
  type ProcessingRecordData,
} from '@register/contracts';
import { BoundedMap } from './bounded-map';
import { currentCorrelationId } from './context';
import type { EventPublisher } from './event-bus';
import { enqueue, enqueueEnvelopes, enqueueRows, envelopeOf, type NewOutboxRow, type WithOutbox } from './outbox';
import type { ProcessingSpool } from './processing-spool';
import { activeSpanIds, newId } from './telemetry/trace-context';

/**
 * The data subject's pseudonym in the processing log: HMAC-SHA256 of the BSN under the deployment's
 * `LDV_PSEUDONYM_SECRET` (ADR 0181). The same BSN gives the same pseudonym under one secret, so the audit service
 * finds a practitioner's records by computing it; without the secret the BSN cannot be recovered from it.
 */
export function pseudonymOf(bsn: string, secret: string): string {
  let kept = recentPseudonyms.get(secret);
  if (!kept) {
    kept = { key: createSecretKey(Buffer.from(secret, 'utf8')), pseudonyms: new BoundedMap(PSEUDONYMS_KEPT) };
    recentPseudonyms.set(secret, kept);
  }
  let pseudonym = kept.pseudonyms.get(bsn);
  if (pseudonym === undefined) {
    pseudonym = createHmac('sha256', kept.key).update(bsn, 'utf8').digest('hex');
    kept.pseudonyms.set(bsn, pseudonym);
  }
  return pseudonym;
}

/**
 * Per secret its key, imported once (a string key is set up anew for every HMAC, ADR 0274), and the pseudonyms
 * computed last: a new HMAC costs more than the rest of a record, and a practitioner's requests come in runs.
 * Bounded, and only in this process's memory, where the BSN of a request in progress is anyway.
 */
const recentPseudonyms = new Map<string, { key: KeyObject; pseudonyms: BoundedMap<string, string> }>();
const PSEUDONYMS_KEPT = 10_000;

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

/**
 * The record of a step in the standard's field names, in the active trace (a new trace outside any). Built here
 * from typed parts, so it is not parsed again on every request; the tests hold each kind of record to the
 * contract's schema, and the logbook parses what it receives.
 */
export function processingRecordOf(step: ProcessingStep, secret: string): ProcessingRecordData {
  const active = activeSpanIds();
  const foreign = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(step.foreignTraceparent ?? '');
  const failed = step.error !== undefined;
  // Assigned, not spread: built for every read, and a spread of a conditional object costs more than the rest.
  const attributes: ProcessingRecordData['attributes'] = {
    'dpl.core.processing_activity_id': verwerkingsactiviteit(step.activity).id,
    'dpl.core.data_subject_id': pseudonymOf(step.subject, secret),
    'dpl.core.data_subject_id_type': 'BSN',
    'register.door': step.door,
  };
  if (foreign) {
    attributes['dpl.core.foreign_operation.trace_id'] = foreign[1];
    attributes['dpl.core.foreign_operation.span_id'] = foreign[2];
  }
  if (failed) {
    // The error's kind and message only: messages of our own errors name no personal data.
    const e = step.error instanceof Error ? step.error : new Error(String(step.error));
    attributes['exception.type'] = e.name.slice(0, 200);
    attributes['exception.message'] = e.message.slice(0, 500);
  }
  return {
    trace_id: active?.traceId ?? newId(16),
    span_id: newId(8),
    parent_span_id: active?.spanId ?? null,
    name: step.name.slice(0, 200),
    status: failed ? 'Error' : 'Ok',
    start_time: step.start.toISOString(),
    end_time: step.end.toISOString(),
    attributes,
  };
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

/** What a service's processing log needs: on or off, the pseudonym's key, the service's outbox. */
export interface ProcessingLog {
  readonly on: boolean;
  /**
   * Writes one record per data subject of `step` through the outbox of `trx`, the caller's transaction: one child
   * span each when a processing concerns several subjects.
   */
  write<DB extends WithOutbox>(trx: Transaction<DB> | Kysely<DB>, step: ProcessingSteps): Promise<void>;
  /** The outbox rows `write` would write, for a caller that writes them in a statement of its own. */
  rows(step: ProcessingSteps): NewOutboxRow[];
  /**
   * The records of a processing that wrote nothing (a read): there is no transaction to join, so they go to the
   * service's spool when it has one (ADR 0269), else to the event stream at once and the call resolves when it
   * acknowledged them; what it does not acknowledge in time goes through the outbox of `db` (the same ids, so a
   * late acknowledgement does not double them).
   */
  writeRead<DB extends WithOutbox>(db: Kysely<DB>, step: ProcessingSteps): Promise<void>;
}

/** A processing of one or more data subjects' personal data. */
export type ProcessingSteps = Omit<ProcessingStep, 'subject'> & { subjects: Iterable<string> };

/** A log that writes nothing (LDV_LOG=off, or a service that processes no practitioner's data). */
export const noProcessingLog: ProcessingLog = {
  on: false,
  write: async () => {},
  rows: () => [],
  writeRead: async () => {},
};

/** How long a read waits for the stream to acknowledge its records before it writes them to its outbox. */
const READ_PUBLISH_TIMEOUT_MS = 500;

/**
 * The processing log of a service: records on `register.processing.<service>`; a write's in its transaction, a
 * read's to `spool` when given, else straight to `events` (the outbox only when the stream does not acknowledge).
 */
export function processingLog(
  service: string,
  secret: string,
  events: EventPublisher,
  spool?: ProcessingSpool,
): ProcessingLog {
  const contract = processingRecord(service);
  const recordsOf = ({ subjects, ...step }: ProcessingSteps) =>
    [...new Set(subjects)].map((subject) => processingRecordOf({ ...step, subject }, secret));
  const envelopesOf = (step: ProcessingSteps) =>
    recordsOf(step).map((record) => envelopeOf(contract.type, record, currentCorrelationId()));
  const rows = (step: ProcessingSteps) =>
    envelopesOf(step).map((envelope) => ({ subject: contract.subject, envelope }));
  return {
    on: true,
    rows,
    async write(trx, step) {
      await enqueueRows(trx, rows(step));
    },
    async writeRead(db, steps) {
      if (spool) {
        // The spool keeps them safe before the answer and publishes them in batches (ADR 0269): no envelope, no
        // trace headers, only the id each is stored under.
        const records = recordsOf(steps).map((record) => ({ id: randomUUID(), record }));
        try {
          spool.append(records);
          return;
        } catch {
          // Stopping, full, or the disk refused: the way without a spool, under the same ids.
          const envelopes = records.map(({ id, record }) => ({
            ...envelopeOf(contract.type, record, currentCorrelationId()),
            id,
          }));
          return publishRead(db, envelopes);
        }
      }
      return publishRead(db, envelopesOf(steps));
    },
  };

  async function publishRead<DB extends WithOutbox>(
    db: Kysely<DB>,
    envelopes: Array<EventEnvelope<ProcessingRecordData>>,
  ): Promise<void> {
    const published = await Promise.allSettled(
      envelopes.map((e) =>
        events.publish(contract.subject, JSON.stringify(e), e.id, { timeoutMs: READ_PUBLISH_TIMEOUT_MS }),
      ),
    );
    const unacknowledged = envelopes.filter((_, i) => published[i]!.status === 'rejected');
    await enqueueEnvelopes(db, contract.subject, unacknowledged);
  }
}

/**
 * The `traceparent` the calling application (a portal) sent the gateway, passed on to the service that processes:
 * the processing log's foreign operation (ADR 0182). The gateway sets it; a client's own is never forwarded.
 */
export const FOREIGN_TRACEPARENT_HEADER = 'x-foreign-traceparent';

/** The processing a request of an operation is, while it runs (ADR 0182). */
interface RunningProcessing {
  log: ProcessingLog;
  activity: ActiviteitSleutel;
  name: string;
  /** The caller's own practitioner subject: processing of it is the practitioner's own (`zelf`). */
  self: string | null;
  /** Who processes any other practitioner's data: a case handler or operator, or the system. */
  door: 'medewerker' | 'systeem';
  foreignTraceparent?: string;
  start: Date;
  subjects: Set<string>;
  recorded: boolean;
}

const running = new AsyncLocalStorage<RunningProcessing>();

/** Runs `fn` as one processing of `activity`; what it names as its data subjects is logged when it succeeds. */
export function runAsProcessing<T>(
  log: ProcessingLog,
  processing: Omit<RunningProcessing, 'log' | 'start' | 'recorded' | 'subjects'> & { subjects?: Iterable<string> },
  fn: () => Promise<T>,
): Promise<T> {
  const scope: RunningProcessing = {
    ...processing,
    log,
    start: new Date(),
    subjects: new Set(processing.subjects ?? []),
    recorded: false,
  };
  return running.run(scope, fn);
}

/**
 * Names the practitioners whose personal data the running request processes (a case handler's or the system's
 * processing of a practitioner's case counts for that practitioner; a practitioner's own request names itself).
 */
export function concerns(...subjects: Array<string | null | undefined>): void {
  const scope = running.getStore();
  if (!scope) return;
  for (const subject of subjects) if (subject) scope.subjects.add(subject);
}

/**
 * Writes the running request's records in the transaction that makes its change, so a write that rolls back
 * logs nothing and a crash after the commit loses nothing (the outbox publishes them).
 */
export async function recordProcessingIn<DB extends WithOutbox>(
  trx: Transaction<DB> | Kysely<DB>,
  ...subjects: Array<string | null | undefined>
): Promise<void> {
  const scope = owingScope(subjects);
  if (!scope) return;
  await enqueueRows(trx, rowsOwedBy(scope));
  scope.recorded = true;
}

/**
 * The outbox rows of the records the running request owes, for a write that puts them in the statement that
 * writes its own events (`enqueueMany`'s `alongWith`), in the transaction that makes its change: one round trip
 * fewer than `recordProcessingIn`. Taking them counts them as written, so it suits a transaction the request does
 * not try again: that transaction then holds them or the request fails.
 */
export function processingRowsOwed(...subjects: Array<string | null | undefined>): NewOutboxRow[] {
  const scope = owingScope(subjects);
  if (!scope) return [];
  scope.recorded = true;
  return rowsOwedBy(scope);
}

/** The running request's processing, once `subjects` are named, when it owes records not yet written. */
function owingScope(subjects: Array<string | null | undefined>): RunningProcessing | undefined {
  concerns(...subjects);
  const scope = running.getStore();
  return scope?.log.on && !scope.recorded && scope.subjects.size > 0 ? scope : undefined;
}

const rowsOwedBy = (scope: RunningProcessing): NewOutboxRow[] => stepsOf(scope).flatMap((step) => scope.log.rows(step));

/**
 * After the request succeeded: writes the records a read (or a write that made none in its transaction) owes.
 * Returns false when the request named no data subject, which a route with an activity should not do.
 */
export async function recordProcessingAfter<DB extends WithOutbox>(db: Kysely<DB>): Promise<boolean> {
  const scope = running.getStore();
  if (!scope?.log.on || scope.recorded) return true;
  if (scope.subjects.size === 0) return false;
  await Promise.all(stepsOf(scope).map((step) => scope.log.writeRead(db, step)));
  scope.recorded = true;
  return true;
}

/** The records owed: the caller's own data as `zelf`, every other practitioner's under the scope's actor. */
function stepsOf(scope: RunningProcessing): ProcessingSteps[] {
  const end = new Date();
  const base = {
    activity: scope.activity,
    name: scope.name,
    start: scope.start,
    end,
    ...(scope.foreignTraceparent ? { foreignTraceparent: scope.foreignTraceparent } : {}),
  };
  const others = [...scope.subjects].filter((s) => s !== scope.self);
  return [
    ...(scope.self !== null && scope.subjects.has(scope.self)
      ? [{ ...base, door: 'zelf' as const, subjects: [scope.self] }]
      : []),
    ...(others.length > 0 ? [{ ...base, door: scope.door, subjects: others }] : []),
  ];
}
