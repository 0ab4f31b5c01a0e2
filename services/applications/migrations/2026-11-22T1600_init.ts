import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it shipped; add a new timestamp-named migration instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('applications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status_tag', 'text', (c) => c.notNull())
    .addColumn('step_index', 'integer')
    .addColumn('step_count', 'integer')
    .addColumn('referentie', 'text', (c) => c.unique())
    .addColumn('manual', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('reden', 'text')
    .addColumn('draft', 'jsonb')
    .addColumn('document_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('submission', 'jsonb')
    .addColumn('besluit', 'text')
    .addColumn('toelichting', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('decided_at', 'timestamptz')
    .execute();
  // The practitioner's own list, newest first (keyset on created_at, id).
  await sql`CREATE INDEX applications_owner_created ON applications (owner, created_at DESC, id DESC)`.execute(db);
  // The work queue: only submitted applications, oldest submittedAt first.
  await sql`CREATE INDEX applications_werkvoorraad ON applications (submitted_at, id)
    WHERE status_tag = 'Ingediend'`.execute(db);
  // Admin case list over every application.
  await sql`CREATE INDEX applications_created ON applications (created_at, id)`.execute(db);
  // ADR 0005: one Concept per owner and type, held by the database even under concurrent creates.
  await sql`CREATE UNIQUE INDEX applications_one_concept ON applications (owner, type)
    WHERE status_tag = 'Concept'`.execute(db);
  await sql`CREATE SEQUENCE aanvraag_referentie_seq`.execute(db);

  // Digital documents still to be linked at the documents service after a committed submit.
  await db.schema
    .createTable('document_link_jobs')
    .addColumn('application_id', 'uuid', (c) => c.primaryKey().references('applications.id').onDelete('cascade'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('documents', 'jsonb', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX document_link_jobs_due ON document_link_jobs (next_attempt_at)`.execute(db);

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('referentie', 'text', (c) => c.notNull().unique())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('telefoon', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`CREATE SEQUENCE wijziging_referentie_seq`.execute(db);

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('envelope', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX outbox_created ON outbox (created_at)`.execute(db);

  // Demo stand-ins for the external registries (register, population, education).
  // Dates are day offsets from "today" so the demo subjects keep their meaning on every day.
  await db.schema
    .createTable('demo_registrations')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('register_nummer', 'text', (c) => c.notNull())
    .addColumn('naam', 'text', (c) => c.notNull())
    .addColumn('beroep', 'text', (c) => c.notNull())
    .addColumn('registratiedatum', 'date', (c) => c.notNull())
    .addColumn('geboortedatum', 'date', (c) => c.notNull())
    .addColumn('status_tag', 'text', (c) => c.notNull())
    .addColumn('herregistratie_over_dagen', 'integer')
    .addColumn('geschorst_over_dagen', 'integer')
    .addColumn('doorgehaald_op', 'date')
    .addColumn('reden', 'text')
    .execute();
  await db.schema
    .createTable('demo_addresses')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('straat', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text', (c) => c.notNull())
    .addColumn('woonplaats', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('demo_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('omschrijving', 'text', (c) => c.notNull())
    .addColumn('datum', 'date', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX demo_notes_subject ON demo_notes (subject, datum)`.execute(db);
  await db.schema
    .createTable('demo_diplomas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('naam', 'text', (c) => c.notNull())
    .addColumn('instelling', 'text', (c) => c.notNull())
    .addColumn('jaar', 'integer', (c) => c.notNull())
    .addColumn('beroep', 'text', (c) => c.notNull())
    .addColumn('buitenlands', 'boolean', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX demo_diplomas_subject ON demo_diplomas (subject, jaar)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'demo_diplomas',
    'demo_notes',
    'demo_addresses',
    'demo_registrations',
    'outbox',
    'change_requests',
    'document_link_jobs',
    'applications',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await sql`DROP SEQUENCE IF EXISTS aanvraag_referentie_seq`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS wijziging_referentie_seq`.execute(db);
}
