import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('document')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('local_id', 'text')
    .addColumn('wizard_id', 'text', (c) => c.notNull())
    .addColumn('category_id', 'text', (c) => c.notNull())
    .addColumn('multiple', 'boolean', (c) => c.notNull())
    .addColumn('application_id', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull().unique())
    .addColumn('linked_application_id', 'text')
    .addColumn('linked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One unlinked document per owner and application (or wizard) in a category that is not `multiple`:
  // the index makes the 409 race-safe; a linked document leaves the slot free.
  await sql`CREATE UNIQUE INDEX document_single_slot_idx ON document (owner, wizard_id, category_id,
    coalesce(application_id, ''))
    WHERE NOT multiple AND linked_application_id IS NULL`.execute(db);
  await db.schema.createIndex('document_owner_local_idx').on('document').columns(['owner', 'local_id']).execute();
  await db.schema.createIndex('document_linked_idx').on('document').column('linked_application_id').execute();
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('envelope', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('outbox_created_idx').on('outbox').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['outbox', 'document']) await db.schema.dropTable(t).execute();
}
