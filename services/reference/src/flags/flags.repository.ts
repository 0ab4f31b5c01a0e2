import type { Kysely, Transaction } from 'kysely';
import type { ReferenceDb } from '../database';

export interface FlagRow {
  key: string;
  description: string | null;
  enabled: boolean;
}

export async function listFlags(db: Kysely<ReferenceDb>): Promise<FlagRow[]> {
  return db.selectFrom('feature_flag').select(['key', 'description', 'enabled']).orderBy('key').execute();
}

export async function findFlag(db: Kysely<ReferenceDb>, key: string): Promise<FlagRow | undefined> {
  return db
    .selectFrom('feature_flag')
    .select(['key', 'description', 'enabled'])
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function updateFlag(trx: Transaction<ReferenceDb>, key: string, enabled: boolean): Promise<boolean> {
  const result = await trx
    .updateTable('feature_flag')
    .set({ enabled, updated_at: new Date() })
    .where('key', '=', key)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function seedFlags(db: Kysely<ReferenceDb>, flags: FlagRow[]): Promise<void> {
  await db
    .insertInto('feature_flag')
    .values(flags)
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}
