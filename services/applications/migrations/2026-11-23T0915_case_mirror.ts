import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it shipped; add a new timestamp-named migration instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per case the mirror owes the zaaksysteem (ADR 0011), written in the submit's, the besluit's
  // or the admin delete's own transaction; keyed by the referentie (= the zaak's identificatie), so a case is
  // never owed twice, and without a foreign key: the zaak delete outlives the application row.
  await db.schema
    .createTable('case_mirrors')
    .addColumn('referentie', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'uuid')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('work_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.defaultTo(sql`now()`))
    .addColumn('zaak_url', 'text')
    .addColumn('zaak_uuid', 'uuid', (c) => c.unique())
    .addColumn('submit_correlation_id', 'text')
    .addColumn('besluit_by', 'text')
    .addColumn('besluit_correlation_id', 'text')
    .addColumn('delete_requested', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('delete_correlation_id', 'text')
    .addColumn('diverged_at', 'timestamptz')
    .addColumn('diverged_correlation_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The mirror and the reconciler claim due rows; done rows (next_attempt_at NULL) are not in the index.
  await sql`CREATE INDEX case_mirrors_due ON case_mirrors (next_attempt_at) WHERE next_attempt_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX case_mirrors_application ON case_mirrors (application_id)`.execute(db);

  // Each completed step of a case, once: a retry, a crash or a restart continues after the last one.
  await db.schema
    .createTable('case_mirror_steps')
    .addColumn('referentie', 'text', (c) => c.notNull().references('case_mirrors.referentie').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('case_mirror_steps_pk', ['referentie', 'step'])
    .execute();

  // Notifications accepted by the webhook, by a key from their content: a redelivery writes no second audit row.
  await db.schema
    .createTable('received_notifications')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX received_notifications_received ON received_notifications (received_at)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['received_notifications', 'case_mirror_steps', 'case_mirrors'])
    await db.schema.dropTable(t).ifExists().execute();
}
