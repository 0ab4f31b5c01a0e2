import { sql, type Kysely } from 'kysely';

/** The processing log (Logboek Dataverwerkingen, ADR 0181): apart from the authorization audit, a pseudonym only. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('logbook')
    .addColumn('record_id', 'uuid', (c) => c.primaryKey())
    .addColumn('trace_id', 'text', (c) => c.notNull())
    .addColumn('span_id', 'text', (c) => c.notNull())
    .addColumn('parent_span_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_time', 'timestamptz', (c) => c.notNull())
    .addColumn('end_time', 'timestamptz', (c) => c.notNull())
    .addColumn('processing_activity_id', 'text', (c) => c.notNull())
    .addColumn('data_subject_id', 'text', (c) => c.notNull())
    .addColumn('data_subject_id_type', 'text', (c) => c.notNull())
    .addColumn('foreign_trace_id', 'text')
    .addColumn('foreign_span_id', 'text')
    .addColumn('exception_type', 'text')
    .addColumn('exception_message', 'text')
    .addColumn('door', 'text', (c) => c.notNull())
    .addColumn('service', 'text', (c) => c.notNull())
    .execute();
  // The inzage walks one subject's records newest first; retention walks an activity's oldest.
  await sql`CREATE INDEX logbook_subject_idx ON logbook (data_subject_id, end_time DESC, record_id DESC)`.execute(db);
  await sql`CREATE INDEX logbook_activity_idx ON logbook (processing_activity_id, end_time)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('logbook').execute();
}
