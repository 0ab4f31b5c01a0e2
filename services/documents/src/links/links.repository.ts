import { sql, type Kysely, type Transaction } from 'kysely';
import type { DocumentsDb } from '../database';
import type { DocumentRow } from '../uploads/documents.table';

type Db = Kysely<DocumentsDb> | Transaction<DocumentsDb>;

export async function findOwnedDocuments(db: Db, owner: string, ids: string[], lock = false): Promise<DocumentRow[]> {
  if (ids.length === 0) return [];
  const q = db.selectFrom('document').selectAll().where('owner', '=', owner).where('id', 'in', ids);
  return lock ? q.forUpdate().execute() : q.execute();
}

export async function linkDocuments(
  trx: Transaction<DocumentsDb>,
  ids: string[],
  applicationId: string,
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('document')
    .set({ linked_application_id: applicationId, linked_at: at })
    .where('id', 'in', ids)
    .where('linked_application_id', 'is', null)
    .execute();
}

export async function findLinkedTo(db: Db, applicationId: string): Promise<DocumentRow[]> {
  return db
    .selectFrom('document')
    .selectAll()
    .where('linked_application_id', '=', applicationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Serialises the transactions that link to or delete one application (until commit), so a link that
 * races a deletion either lands before it (and is deleted with it) or sees the deletion (and is refused).
 */
export async function lockApplication(trx: Transaction<DocumentsDb>, applicationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${applicationId}, 0))`.execute(trx);
}

/** Marks the application deleted (idempotent) and removes its linked documents; returns their object keys. */
export async function deleteApplicationDocuments(
  trx: Transaction<DocumentsDb>,
  applicationId: string,
): Promise<Array<{ objectKey: string; owner: string }>> {
  await trx
    .insertInto('deleted_application')
    .values({ application_id: applicationId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const rows = await trx
    .deleteFrom('document')
    .where('linked_application_id', '=', applicationId)
    .returning(['object_key', 'owner'])
    .execute();
  return rows.map((r) => ({ objectKey: r.object_key, owner: r.owner }));
}

export async function isDeletedApplication(db: Db, applicationId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('deleted_application')
      .select('application_id')
      .where('application_id', '=', applicationId)
      .executeTakeFirst()) !== undefined
  );
}
