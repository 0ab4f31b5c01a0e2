import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passage')
    .addColumn('passage_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('section_key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('beroep', 'text')
    .addColumn('is_default', 'boolean', (c) => c.notNull())
    .addColumn('besluit', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('passage_pk', ['passage_id', 'version'])
    .execute();

  await db.schema
    .createTable('org_template')
    .addColumn('sub_org_id', 'text', (c) => c.primaryKey())
    .addColumn('draft', 'jsonb', (c) => c.notNull())
    .addColumn('published_version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Append-only: a publish or a rollback adds a row, nothing updates or deletes one.
  await db.schema
    .createTable('org_template_version')
    .addColumn('sub_org_id', 'text', (c) => c.notNull().references('org_template.sub_org_id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'timestamptz', (c) => c.notNull())
    .addColumn('template', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_template_version_pk', ['sub_org_id', 'version'])
    .execute();

  await db.schema
    .createTable('brief')
    .addColumn('brief_id', 'uuid', (c) => c.primaryKey())
    .addColumn('is_shared', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('application_id', 'uuid', (c) => c.unique())
    .addColumn('referentie', 'text', (c) => c.unique())
    .addColumn('beroep', 'text')
    .addColumn('besluit', 'text')
    .addColumn('template_id', 'text', (c) => c.notNull().references('org_template.sub_org_id'))
    .addColumn('sections', 'jsonb', (c) => c.notNull())
    .addColumn('frozen_sections', 'jsonb')
    .addColumn('status_tag', 'text', (c) => c.notNull())
    .addColumn('submitted_by', 'text')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'timestamptz')
    .addColumn('rejected_by', 'text')
    .addColumn('rejected_at', 'timestamptz')
    .addColumn('comments', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('drafter_id', 'text')
    .addColumn('template_version', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX brief_shared_idx ON brief (is_shared) WHERE is_shared`.execute(db);
  await db.schema.createIndex('brief_template_status_idx').on('brief').columns(['template_id', 'status_tag']).execute();

  // Letters' own copy of the case context it needs (fetched once from the applications service).
  await db.schema
    .createTable('case_context')
    .addColumn('brief_id', 'uuid', (c) => c.primaryKey().references('brief.brief_id').onDelete('cascade'))
    .addColumn('application_id', 'uuid')
    .addColumn('referentie', 'text')
    .addColumn('type', 'text')
    .addColumn('besluit', 'text')
    .addColumn('toelichting', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('beroep', 'text')
    .addColumn('zorgverlener_naam', 'text')
    .addColumn('register_nummer', 'text')
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['case_context', 'brief', 'org_template_version', 'org_template', 'passage'])
    await db.schema.dropTable(table).execute();
}
