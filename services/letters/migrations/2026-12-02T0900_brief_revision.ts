import { sql, type Kysely } from 'kysely';

// Every write of a brief raises its revision: a write is a compare-and-set on it, and a reader that holds the
// content of that revision need not read the content again.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('brief')
    .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(sql`1`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('brief').dropColumn('revision').execute();
}
