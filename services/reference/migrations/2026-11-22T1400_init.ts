import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stamdata_table')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('temporal', 'boolean', (c) => c.notNull())
    .addColumn('columns', 'jsonb', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stamdata_row')
    .addColumn('table_id', 'text', (c) => c.notNull().references('stamdata_table.id'))
    .addColumn('row_key', 'text', (c) => c.notNull())
    .addColumn('geldig_vanaf', 'date')
    .addColumn('geldig_tot', 'date')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('stamdata_row_pk', ['table_id', 'row_key', 'position'])
    .execute();
  await db.schema
    .createIndex('stamdata_row_valid_idx')
    .on('stamdata_row')
    .columns(['table_id', 'geldig_vanaf', 'geldig_tot'])
    .execute();
  await db.schema
    .createTable('feature_flag')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
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
  for (const t of ['outbox', 'feature_flag', 'stamdata_row', 'stamdata_table']) await db.schema.dropTable(t).execute();
}
