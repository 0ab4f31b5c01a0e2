import type { ApplicationRow } from '../applications/application-reads';
import type { Db } from '../database';

export async function markDecided(
  db: Db,
  id: string,
  values: { tag: string; besluit: string; toelichting: string | null; now: Date },
): Promise<ApplicationRow> {
  return db
    .updateTable('applications')
    .set({
      status_tag: values.tag,
      besluit: values.besluit,
      toelichting: values.toelichting,
      decided_at: values.now,
      updated_at: values.now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
