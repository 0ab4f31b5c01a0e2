import type { Kysely } from 'kysely';

// The practitioner a case's letter is about, as the applications service names them: the data subject of the
// letter's processing records (ADR 0182). Nullable: a context copied before it existed has none (expand only).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_context').addColumn('subject', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_context').dropColumn('subject').execute();
}
