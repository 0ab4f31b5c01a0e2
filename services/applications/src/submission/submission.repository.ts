import { sql } from 'kysely';
import { OUTBOX_CHANNEL, currentTraceparent, type EventEnvelope } from '@register/service-kit';
import type { ApplicationType } from '../cases/application.schemas';
import { isApplicationId, type ApplicationRow, type Db } from '../cases/applications.repository';
import type { DocumentLinkRef } from '../document-linking/link-jobs.table';

/** Only the type of the caller's own application (submit needs no draft, which can be large). */
export async function findOwnedType(db: Db, owner: string, id: string): Promise<ApplicationType | undefined> {
  if (!isApplicationId(id)) return undefined;
  const row = await db
    .selectFrom('applications')
    .select('type')
    .where('id', '=', id)
    .where('owner', '=', owner)
    .executeTakeFirst();
  // Create admits only the two types, so the column holds nothing else.
  return row?.type as ApplicationType | undefined;
}

export interface SubmitValues {
  id: string;
  owner: string;
  /** `AV-<year>-`; the sequence adds the number (at least 6 digits). */
  referentiePrefix: string;
  documentIds: string[];
  submission: unknown;
  now: Date;
  /** The document_link_jobs row to write, or null when nothing is to be linked. */
  linkJob: DocumentLinkRef[] | null;
  /** The outbox event; `data.referentie` is filled in by the statement from the number it draws. */
  event: { subject: string; envelope: EventEnvelope };
  /** With mirroring on (ADR 0011): the case the mirror owes the zaaksysteem, and the submit's correlation id. */
  mirror: { correlationId: string | null } | null;
}

/** What submit answers with (the status); never the draft, which can be large. */
export type SubmittedRow = Pick<
  ApplicationRow,
  'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'
>;

/**
 * Submit's transaction as ONE statement (ADR 0059, step 2):
 * `Concept` → `Ingediend` with a referentie from the sequence, the link job, the mirror's record (mirroring
 * on) and the outbox event with its NOTIFY. A single statement is a transaction of its own, so everything commits or
 * nothing does, in one round trip instead of seven. The `status_tag = 'Concept'` condition is re-checked on the
 * newest row version after waiting for a concurrent writer's lock (READ COMMITTED), so of two racing
 * submits exactly one updates. Undefined when nothing was updated (no longer a `Concept`, or gone).
 * The outbox row is what the kit's `enqueue` writes (id, subject, envelope, then pg_notify on the relay's channel).
 */
export async function submitConcept(db: Db, v: SubmitValues): Promise<SubmittedRow | undefined> {
  const { rows } = await sql<SubmittedRow & { notified: unknown }>`
    WITH drawn AS (
      SELECT ${v.referentiePrefix} || lpad(n::text, greatest(6, length(n::text)), '0') AS referentie
      FROM nextval('aanvraag_referentie_seq') AS n
    ), submitted AS (
      UPDATE applications SET
        status_tag = 'Ingediend',
        referentie = (SELECT referentie FROM drawn),
        document_ids = ${JSON.stringify(v.documentIds)}::jsonb,
        submission = ${JSON.stringify(v.submission)}::jsonb,
        submitted_at = ${v.now},
        updated_at = ${v.now}
      WHERE id = ${v.id}::uuid AND status_tag = 'Concept'
      RETURNING id, referentie, status_tag, step_index, step_count, manual, reden
    ), link_job AS (
      INSERT INTO document_link_jobs (application_id, owner, documents)
      SELECT id, ${v.owner}, ${v.linkJob ? JSON.stringify(v.linkJob) : null}::jsonb FROM submitted
      WHERE ${v.linkJob !== null}
      ON CONFLICT (application_id) DO UPDATE SET documents = EXCLUDED.documents, next_attempt_at = now()
    ), mirror AS (
      INSERT INTO case_mirrors (referentie, application_id, submit_correlation_id, traceparent)
      SELECT referentie, id, ${v.mirror?.correlationId ?? null}::text, ${currentTraceparent() ?? null}::text
      FROM submitted WHERE ${v.mirror !== null}
    ), event AS (
      INSERT INTO outbox (id, subject, envelope)
      SELECT ${v.event.envelope.id}::uuid, ${v.event.subject}, jsonb_set(${JSON.stringify(v.event.envelope)}::jsonb,
      '{data,referentie}', to_jsonb(referentie))
      FROM submitted
      RETURNING id
    )
    SELECT status_tag, step_index, step_count, referentie, manual, reden, (SELECT count(pg_notify(${OUTBOX_CHANNEL},
    '')) FROM event) AS notified
    FROM submitted`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    status_tag: row.status_tag,
    step_index: row.step_index,
    step_count: row.step_count,
    referentie: row.referentie,
    manual: row.manual,
    reden: row.reden,
  };
}
