import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('authz_audit')
    .addColumn('event_id', 'uuid', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text')
    .addColumn('service', 'text', (c) => c.notNull())
    .execute();
  // Keyset paging walks (at, event_id) newest first.
  await sql`CREATE INDEX authz_audit_newest_idx ON authz_audit (at DESC, event_id DESC)`.execute(db);
  await sql`CREATE INDEX authz_audit_correlation_idx ON authz_audit (correlation_id, at DESC, event_id DESC)`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('authz_audit').execute();
}
