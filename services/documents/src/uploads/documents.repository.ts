import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DocumentsDb } from '../database';
import type { DocumentRow, DocumentTable } from './documents.table';

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

export async function findDocumentForUpdate(
  trx: Transaction<DocumentsDb>,
  id: string,
): Promise<DocumentRow | undefined> {
  return trx.selectFrom('document').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function hasUnlinkedInSlot(
  db: Db,
  slot: { owner: string; wizardId: string; categoryId: string; applicationId: string | null },
): Promise<boolean> {
  let q = db
    .selectFrom('document')
    .select('id')
    .where('owner', '=', slot.owner)
    .where('wizard_id', '=', slot.wizardId)
    .where('category_id', '=', slot.categoryId)
    .where('linked_application_id', 'is', null);
  q =
    slot.applicationId === null
      ? q.where('application_id', 'is', null)
      : q.where('application_id', '=', slot.applicationId);
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export async function deleteDocument(db: Db, id: string): Promise<void> {
  await db.deleteFrom('document').where('id', '=', id).execute();
}

/** The newest document of the owner per localId. */
export async function findByLocalIds(db: Db, owner: string, localIds: string[]): Promise<Map<string, DocumentRow>> {
  if (localIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('document')
    .selectAll()
    .where('owner', '=', owner)
    .where('local_id', 'in', localIds)
    .orderBy('created_at', 'asc')
    .execute();
  return new Map(rows.map((r) => [r.local_id as string, r]));
}
