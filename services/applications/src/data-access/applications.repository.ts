import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AppDatabase, ApplicationsTable } from './database';

export type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;
export type ApplicationRow = Selectable<ApplicationsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids; anything else cannot exist (and must not reach Postgres as a cast error). */
export const isApplicationId = (id: string): boolean => UUID.test(id);

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
export async function listByOwner(db: Db, owner: string, limit: number, after: Keyset | null): Promise<ApplicationRow[]> {
  let q = db.selectFrom('applications').selectAll().where('owner', '=', owner);
  if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The work queue, oldest submittedAt first; served by the partial index applications_werkvoorraad. */
export async function listSubmitted(db: Db, limit: number, after: Keyset | null): Promise<ApplicationRow[]> {
  let q = db.selectFrom('applications').selectAll().where('status_tag', '=', 'Ingediend');
  if (after) q = q.where(sql<boolean>`(submitted_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('submitted_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

/** Every application, oldest first; served by applications_created. */
export async function listAll(db: Db, limit: number, after: Keyset | null): Promise<ApplicationRow[]> {
  let q = db.selectFrom('applications').selectAll();
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

export async function markSubmitted(
  db: Db,
  id: string,
  values: { referentie: string; documentIds: string[]; submission: unknown; now: Date },
): Promise<ApplicationRow> {
  return db
    .updateTable('applications')
    .set({
      status_tag: 'Ingediend',
      referentie: values.referentie,
      document_ids: JSON.stringify(values.documentIds),
      submission: JSON.stringify(values.submission),
      submitted_at: values.now,
      updated_at: values.now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
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
