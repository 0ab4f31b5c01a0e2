import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { OUTBOX_CHANNEL, type EventEnvelope } from '@register/service-kit';
import type { AppDatabase, ApplicationsTable, DocumentLinkRef } from './database';

export type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;
export type ApplicationRow = Selectable<ApplicationsTable>;

/**
 * A row of a list (own applications, werkvoorraad, admin cases): only what a summary shows, never the
 * draft or the submission (which can be large), and the timestamps already as the API writes them
 * (ISO-8601, UTC, milliseconds: what Date#toISOString gives; to_char truncates microseconds as the
 * Date parse does). Formatting in the query saves parsing ~300 timestamps into Dates per page of
 * 100 and serialising them again (the largest allocation of these routes, and so their GC pauses).
 */
export interface ListRow extends Pick<ApplicationRow, 'id' | 'owner' | 'type' | 'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'> {
  document_ids: string[];
  created_iso: string;
  updated_iso: string;
  submitted_iso: string | null;
  /** The row's place in its list (the ordering timestamp) in PostgreSQL's own microsecond text, for the cursor. */
  key_at: string;
}

const ISO_MS = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
const ISO_US = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
/** Exact, unlike the millisecond columns: a cursor from a rounded timestamp would repeat or skip rows. */
const keyAt = (column: 'created_at' | 'submitted_at') => sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', ${ISO_US})`.as('key_at');
const listColumns = [
  'id', 'owner', 'type', 'status_tag', 'step_index', 'step_count', 'referentie', 'manual', 'reden', 'document_ids',
  // Aliases differ from the column names: ORDER BY created_at must keep meaning the column (and its index).
  sql<string>`to_char(created_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('created_iso'),
  sql<string>`to_char(updated_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('updated_iso'),
  sql<string | null>`to_char(submitted_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('submitted_iso'),
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids; anything else cannot exist (and must not reach Postgres as a cast error). */
export const isApplicationId = (id: string): boolean => UUID.test(id);

/** A position in a list: `at` is a `key_at` (or any timestamp text PostgreSQL reads exactly), compared as timestamptz. */
export interface Keyset {
  at: string;
  id: string;
}

export async function insertApplication(db: Db, row: { id: string; owner: string; type: string; now: Date }): Promise<ApplicationRow> {
  return db
    .insertInto('applications')
    .values({ id: row.id, owner: row.owner, type: row.type, status_tag: 'Concept', document_ids: '[]', created_at: row.now, updated_at: row.now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findOwned(db: Db, owner: string, id: string): Promise<ApplicationRow | undefined> {
  if (!isApplicationId(id)) return undefined;
  return db.selectFrom('applications').selectAll().where('id', '=', id).where('owner', '=', owner).executeTakeFirst();
}

/** Only the type of the caller's own application (submit needs no draft, which can be large). */
export async function findOwnedType(db: Db, owner: string, id: string): Promise<string | undefined> {
  if (!isApplicationId(id)) return undefined;
  const row = await db.selectFrom('applications').select('type').where('id', '=', id).where('owner', '=', owner).executeTakeFirst();
  return row?.type;
}

export async function findById(db: Db, id: string, lock = false): Promise<ApplicationRow | undefined> {
  if (!isApplicationId(id)) return undefined;
  const q = db.selectFrom('applications').selectAll().where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function findByReferentie(db: Db, referentie: string, lock = false): Promise<ApplicationRow | undefined> {
  const q = db.selectFrom('applications').selectAll().where('referentie', '=', referentie);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/** The owner's applications, newest first; served by applications_owner_created. */
export async function listByOwner(db: Db, owner: string, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db.selectFrom('applications').select([...listColumns, keyAt('created_at')]).where('owner', '=', owner);
  if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The work queue, oldest submittedAt first; served by the partial index applications_werkvoorraad. */
export async function listSubmitted(db: Db, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db.selectFrom('applications').select([...listColumns, keyAt('submitted_at')]).where('status_tag', '=', 'Ingediend');
  if (after) q = q.where(sql<boolean>`(submitted_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('submitted_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

/** Every application, oldest first; served by applications_created. */
export async function listAll(db: Db, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db.selectFrom('applications').select([...listColumns, keyAt('created_at')]);
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

export async function updateDraft(db: Db, id: string, values: { draft: unknown; stepIndex: number; stepCount: number; documentIds: string[] | null; now: Date }): Promise<void> {
  await db
    .updateTable('applications')
    .set({
      draft: JSON.stringify(values.draft ?? null),
      step_index: values.stepIndex,
      step_count: values.stepCount,
      ...(values.documentIds ? { document_ids: JSON.stringify(values.documentIds) } : {}),
      updated_at: values.now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteApplication(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** AV-<year>-<6 digits> from a sequence, so two submits never share one. */
export async function nextReferentie(db: Db, prefix: 'AV' | 'WV', year: string): Promise<string> {
  const seq = prefix === 'AV' ? sql.raw('aanvraag_referentie_seq') : sql.raw('wijziging_referentie_seq');
  const { rows } = await sql<{ n: number }>`SELECT nextval('${seq}') AS n`.execute(db);
  return `${prefix}-${year}-${String(rows[0]!.n).padStart(6, '0')}`;
}

export interface SubmitValues {
  id: string;
  owner: string;
  /** `AV-<year>-`; the sequence adds the number (at least 6 digits, as nextReferentie). */
  referentiePrefix: string;
  documentIds: string[];
  submission: unknown;
  now: Date;
  /** The document_link_jobs row to write, or null when nothing is to be linked. */
  linkJob: DocumentLinkRef[] | null;
  /** The outbox event; `data.referentie` is filled in by the statement from the number it draws. */
  event: { subject: string; envelope: EventEnvelope };
}

/** What submit answers with (the status); never the draft, which can be large. */
export type SubmittedRow = Pick<ApplicationRow, 'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'>;

/**
 * Submit's transaction as ONE statement (docs/decisions-applications.md, crash-safe submit, step 2):
 * `Concept` → `Ingediend` with a referentie from the sequence, the link job and the outbox event with
 * its NOTIFY. A single statement is a transaction of its own, so everything commits or nothing does,
 * in one round trip instead of seven. The `status_tag = 'Concept'` condition is re-checked on the
 * newest row version after waiting for a concurrent writer's lock (READ COMMITTED), so of two racing
 * submits exactly one updates. Undefined when nothing was updated (no longer a `Concept`, or gone).
 * The outbox row is what `enqueueEvent` writes (id, subject, envelope, then pg_notify on the relay's channel).
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
      SELECT id, ${v.owner}, ${v.linkJob ? JSON.stringify(v.linkJob) : null}::jsonb FROM submitted WHERE ${v.linkJob !== null}
      ON CONFLICT (application_id) DO UPDATE SET documents = EXCLUDED.documents, next_attempt_at = now()
    ), event AS (
      INSERT INTO outbox (id, subject, envelope)
      SELECT ${v.event.envelope.id}::uuid, ${v.event.subject}, jsonb_set(${JSON.stringify(v.event.envelope)}::jsonb, '{data,referentie}', to_jsonb(referentie))
      FROM submitted
      RETURNING id
    )
    SELECT status_tag, step_index, step_count, referentie, manual, reden, (SELECT count(pg_notify(${OUTBOX_CHANNEL}, '')) FROM event) AS notified
    FROM submitted`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return { status_tag: row.status_tag, step_index: row.step_index, step_count: row.step_count, referentie: row.referentie, manual: row.manual, reden: row.reden };
}

export async function markDecided(db: Db, id: string, values: { tag: string; besluit: string; toelichting: string | null; now: Date }): Promise<ApplicationRow> {
  return db
    .updateTable('applications')
    .set({ status_tag: values.tag, besluit: values.besluit, toelichting: values.toelichting, decided_at: values.now, updated_at: values.now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function flagManual(db: Db, id: string, reden: string): Promise<void> {
  await db.updateTable('applications').set({ manual: true, reden }).where('id', '=', id).execute();
}
