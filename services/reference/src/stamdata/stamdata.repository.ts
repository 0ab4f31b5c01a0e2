import type { Kysely } from 'kysely';
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

/** Every row of every table with its valid time, in table order (the snapshot filters by day in memory). */
export async function listAllRows(
  db: Kysely<ReferenceDb>,
): Promise<
  Array<{ table_id: string; data: Record<string, unknown>; geldig_vanaf: string | null; geldig_tot: string | null }>
> {
  return db
    .selectFrom('stamdata_row')
    .select(['table_id', 'data', 'geldig_vanaf', 'geldig_tot'])
    .orderBy('table_id')
    .orderBy('position')
    .execute();
}
