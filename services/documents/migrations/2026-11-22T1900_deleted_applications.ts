import { sql, type Kysely } from 'kysely';

/** Applications an admin deleted: their documents are gone and a late link to them is refused. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deleted_application')
    .addColumn('application_id', 'text', (c) => c.primaryKey())
    .addColumn('deleted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deleted_application').execute();
}
