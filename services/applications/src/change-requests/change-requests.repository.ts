import { sql } from 'kysely';
import type { Db } from '../database';
import { formatReferentie } from '../submission/referentie';

/** `WV-<year>-<6 digits>` from its own sequence, so two change requests never share one. */
export async function nextWijzigingReferentie(db: Db, prefix: string): Promise<string> {
  const { rows } = await sql<{ n: number }>`SELECT nextval('wijziging_referentie_seq') AS n`.execute(db);
  return formatReferentie(prefix, Number(rows[0]!.n));
}

export async function insertChangeRequest(
  db: Db,
  row: { id: string; referentie: string; owner: string; telefoon: string; now: Date },
): Promise<void> {
  await db
    .insertInto('change_requests')
    .values({ id: row.id, referentie: row.referentie, owner: row.owner, telefoon: row.telefoon, created_at: row.now })
    .execute();
}
