import type { Kysely } from 'kysely';

// Frozen: never edit after it shipped; add a new timestamp-named migration instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The W3C traceparent of the request that last gave the mirror work (submit, besluit, delete): the mirror's
  // ZGW calls for the case continue that trace (issue 14).
  await db.schema.alterTable('case_mirrors').addColumn('traceparent', 'text').execute();
}
