import type { Db } from '../database';

/** Removes the case's application; its link job goes with it (ON DELETE CASCADE). False when it was not there. */
export async function deleteApplication(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('applications').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
