import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it shipped; add a new timestamp-named migration instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per healed divergence: the operations console counts the heals of the last 24 hours (issue 22).
  await db.schema
    .createTable('case_mirror_heals')
    .addColumn('referentie', 'text', (c) => c.notNull())
    .addColumn('healed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX case_mirror_heals_at ON case_mirror_heals (healed_at)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_mirror_heals').ifExists().execute();
}
