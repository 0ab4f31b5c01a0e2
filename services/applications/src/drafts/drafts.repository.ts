import type { ApplicationRow } from '../applications/application-reads';
import type { Db } from '../database';

export async function insertApplication(
  db: Db,
  row: { id: string; owner: string; type: string; now: Date },
): Promise<ApplicationRow> {
  return db
    .insertInto('applications')
    .values({
      id: row.id,
      owner: row.owner,
      type: row.type,
      status_tag: 'Concept',
      document_ids: '[]',
      created_at: row.now,
      updated_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateDraft(
  db: Db,
  id: string,
  values: { draft: unknown; stepIndex: number; stepCount: number; documentIds: string[] | null; now: Date },
): Promise<void> {
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

/** Removes a Concept its use case has locked and checked; its link job, if any, goes with it (ON DELETE CASCADE). */
export async function deleteConcept(db: Db, id: string): Promise<void> {
  await db.deleteFrom('applications').where('id', '=', id).execute();
}
