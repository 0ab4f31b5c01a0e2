import { sql } from 'kysely';
import type { Db } from '../database';

/** How long a notification's key is kept to recognise a redelivery (Open Notificaties retries within hours). */
const KEEP = '7 days';

/** True when this key is new (the notification was not received before); old keys are let go on the way. */
export async function rememberNotification(db: Db, key: string): Promise<boolean> {
  await sql`DELETE FROM received_notifications WHERE received_at < now() - ${KEEP}::interval`.execute(db);
  const res = await db
    .insertInto('received_notifications')
    .values({ key })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
