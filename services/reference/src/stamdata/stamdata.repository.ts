import { sql, type Kysely } from 'kysely';
import type { ReferenceDb } from '../database';
import type { SeedTable } from './stamdata.seed';

export interface StamdataTableRow {
  id: string;
  label: string;
  temporal: boolean;
  columns: Array<{ name: string; type: string; isKey: boolean; options: string[] | null }>;
}

export async function listTables(db: Kysely<ReferenceDb>): Promise<StamdataTableRow[]> {
  return db.selectFrom('stamdata_table').select(['id', 'label', 'temporal', 'columns']).orderBy('position').execute();
}

export async function findTable(db: Kysely<ReferenceDb>, id: string): Promise<StamdataTableRow | undefined> {
  return db.selectFrom('stamdata_table').select(['id', 'label', 'temporal', 'columns']).where('id', '=', id).executeTakeFirst();
}

/** Rows of a table; for a temporal table only those valid on `peildatum` (vanaf inclusive, tot exclusive). */
export async function listRows(db: Kysely<ReferenceDb>, tableId: string, peildatum: string | null): Promise<Array<Record<string, unknown>>> {
  let query = db.selectFrom('stamdata_row').select('data').where('table_id', '=', tableId);
  if (peildatum !== null) {
    query = query
      .where('geldig_vanaf', '<=', sql<string>`${peildatum}::date`)
      .where((eb) => eb.or([eb('geldig_tot', 'is', null), eb('geldig_tot', '>', sql<string>`${peildatum}::date`)]));
  }
  const rows = await query.orderBy('position').execute();
  return rows.map((r) => r.data);
}

/** Idempotent: inserts the shipped tables and rows that are not there yet, never overwrites edits. */
export async function seedTables(db: Kysely<ReferenceDb>, tables: SeedTable[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [position, t] of tables.entries()) {
      const inserted = await trx
        .insertInto('stamdata_table')
        .values({ id: t.id, label: t.label, temporal: t.temporal, columns: JSON.stringify(t.columns), position })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) continue;
      const key = t.columns.find((c) => c.isKey)?.name ?? 'id';
      await trx
        .insertInto('stamdata_row')
        .values(
          t.rows.map((row, i) => ({
            table_id: t.id,
            row_key: String(row[key]),
            geldig_vanaf: t.temporal ? (row['geldigVanaf'] as string) : null,
            geldig_tot: t.temporal ? ((row['geldigTot'] as string | null) ?? null) : null,
            data: JSON.stringify(row),
            position: i,
          })),
        )
        .execute();
    }
  });
}
