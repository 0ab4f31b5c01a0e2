import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DocumentRow, DocumentsDb, DocumentTable } from './documents.table';

type Db = Kysely<DocumentsDb> | Transaction<DocumentsDb>;

/** Postgres unique_violation on the single-slot index: a second unlinked document in the category. */
export function isSingleSlotConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === 'document_single_slot_idx';
}

export async function insertDocument(db: Db, values: Insertable<DocumentTable>): Promise<DocumentRow> {
  return db.insertInto('document').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('document').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDocumentForUpdate(trx: Transaction<DocumentsDb>, id: string): Promise<DocumentRow | undefined> {
  return trx.selectFrom('document').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function hasUnlinkedInSlot(db: Db, slot: { owner: string; wizardId: string; categoryId: string; applicationId: string | null }): Promise<boolean> {
  let q = db
    .selectFrom('document')
    .select('id')
    .where('owner', '=', slot.owner)
    .where('wizard_id', '=', slot.wizardId)
    .where('category_id', '=', slot.categoryId)
    .where('linked_application_id', 'is', null);
  q = slot.applicationId === null ? q.where('application_id', 'is', null) : q.where('application_id', '=', slot.applicationId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export async function deleteDocument(db: Db, id: string): Promise<void> {
  await db.deleteFrom('document').where('id', '=', id).execute();
}

/** The newest document of the owner per localId. */
export async function findByLocalIds(db: Db, owner: string, localIds: string[]): Promise<Map<string, DocumentRow>> {
  if (localIds.length === 0) return new Map();
  const rows = await db.selectFrom('document').selectAll().where('owner', '=', owner).where('local_id', 'in', localIds).orderBy('created_at', 'asc').execute();
  return new Map(rows.map((r) => [r.local_id as string, r]));
}

export async function findOwnedDocuments(db: Db, owner: string, ids: string[], lock = false): Promise<DocumentRow[]> {
  if (ids.length === 0) return [];
  const q = db.selectFrom('document').selectAll().where('owner', '=', owner).where('id', 'in', ids);
  return lock ? q.forUpdate().execute() : q.execute();
}

export async function linkDocuments(trx: Transaction<DocumentsDb>, ids: string[], applicationId: string, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('document').set({ linked_application_id: applicationId, linked_at: at }).where('id', 'in', ids).where('linked_application_id', 'is', null).execute();
}

export async function findLinkedTo(db: Db, applicationId: string): Promise<DocumentRow[]> {
  return db.selectFrom('document').selectAll().where('linked_application_id', '=', applicationId).orderBy('created_at').orderBy('id').execute();
}

/** Which of these object keys still belong to a document (the sweeper keeps those). */
export async function knownObjectKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('document').select('object_key').where('object_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.object_key));
}

/**
 * Serialises the transactions that link to or delete one application (until commit), so a link that
 * races a deletion either lands before it (and is deleted with it) or sees the deletion (and is refused).
 */
export async function lockApplication(trx: Transaction<DocumentsDb>, applicationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${applicationId}, 0))`.execute(trx);
}

/** Marks the application deleted (idempotent) and removes its linked documents; returns their object keys. */
export async function deleteApplicationDocuments(trx: Transaction<DocumentsDb>, applicationId: string): Promise<string[]> {
  await trx.insertInto('deleted_application').values({ application_id: applicationId }).onConflict((oc) => oc.doNothing()).execute();
  const rows = await trx.deleteFrom('document').where('linked_application_id', '=', applicationId).returning('object_key').execute();
  return rows.map((r) => r.object_key);
}

export async function isDeletedApplication(db: Db, applicationId: string): Promise<boolean> {
  return (await db.selectFrom('deleted_application').select('application_id').where('application_id', '=', applicationId).executeTakeFirst()) !== undefined;
}
