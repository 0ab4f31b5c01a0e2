import path from 'node:path';
import {
  databaseTables,
  ownershipViolations,
  sourcesOf,
  tableWrites,
  unseenTables,
  type Ownership,
  type SourceFile,
} from '@register/testkit';

/**
 * Which part of the service writes which table (ADR 0253). An owner is a path under `src/`: a feature folder, or
 * one file. Any other part that needs a change in the table calls its owner's function in its own transaction.
 * `applications` has one owner per change of an application; the attention flag (`manual`, `reden`) is also set
 * by the two background features that give up on a case, and by nothing else.
 */
const TABLE_OWNERS: Record<string, Ownership> = {
  applications: {
    owners: ['drafts/', 'submission/', 'assessment/', 'admin-cases/'],
    flag: { by: ['document-linking/', 'case-mirror/'], columns: ['manual', 'reden'] },
  },
  document_link_jobs: { owners: ['document-linking/'] },
  case_mirrors: { owners: ['case-mirror/'] },
  case_mirror_steps: { owners: ['case-mirror/'] },
  case_mirror_heals: { owners: ['case-mirror/'] },
  change_requests: { owners: ['change-requests/'] },
  received_notifications: { owners: ['notifications/'] },
  demo_registrations: { owners: ['adapters/demo-seed.ts'] },
  demo_addresses: { owners: ['adapters/demo-seed.ts'] },
  demo_notes: { owners: ['adapters/demo-seed.ts'] },
  demo_diplomas: { owners: ['adapters/demo-seed.ts'] },
  // The kit's: written only through its enqueue and enqueueMany, published and deleted by its relay.
  outbox: { owners: [] },
};

const SRC = path.join(__dirname, '..', 'src');
const violations = (files: SourceFile[]) => ownershipViolations(files, TABLE_OWNERS);

describe('table ownership (ADR 0253)', () => {
  it('when the database has a table, then TABLE_OWNERS names its owner, and names no table the database lacks', () => {
    const tables = databaseTables(path.join(SRC, 'database.ts'), 'AppDatabase');
    expect(tables.length).toBeGreaterThan(1);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('when src/ is read, then no part of it writes a table another feature or the kit owns', () => {
    expect(violations(sourcesOf(SRC))).toEqual([]);
  });

  it('when src/ is read, then every table but the outbox is seen written by its owners (the scan is not blind)', () => {
    expect(unseenTables(sourcesOf(SRC), TABLE_OWNERS)).toEqual([]);
  });

  it('when submission writes the link jobs, the mirror and the outbox itself, then each is a violation', () => {
    const source = `
      await sql\`WITH submitted AS (
        UPDATE applications SET status_tag = 'Ingediend' WHERE id = \${id}::uuid RETURNING id, referentie
      ), link_job AS (
        INSERT INTO document_link_jobs (application_id, owner, documents) SELECT id, \${owner}, \${docs} FROM submitted
        ON CONFLICT (application_id) DO UPDATE SET documents = EXCLUDED.documents
      ), mirror AS (
        INSERT INTO case_mirrors (referentie, application_id) SELECT referentie, id FROM submitted
      )
      INSERT INTO outbox (id, subject, envelope) SELECT \${eventId}::uuid, \${subject}, \${envelope} FROM submitted\`;`;
    expect(violations([{ file: 'submission/submission.repository.ts', source }])).toEqual([
      'submission/submission.repository.ts:5 writes document_link_jobs (insert), which document-linking/ owns',
      'submission/submission.repository.ts:8 writes case_mirrors (insert), which case-mirror/ owns',
      'submission/submission.repository.ts:10 writes outbox (insert), which the service kit owns',
    ]);
  });

  it('when kysely writes another feature’s table, then a violation; the flag columns alone are allowed', () => {
    const files: SourceFile[] = [
      { file: 'drafts/x.ts', source: `await db.insertInto('outbox').values(row).execute();` },
      { file: 'assessment/x.ts', source: `await trx.deleteFrom("document_link_jobs").where('id', '=', id).execute();` },
      {
        file: 'case-mirror/x.ts',
        source: `await db.updateTable('applications').set({ manual: true, status_tag: 'Afgewezen' }).execute();`,
      },
      {
        file: 'case-mirror/y.ts',
        source: `await db.updateTable('applications').set({ ...values }).where('id', '=', id).execute();`,
      },
      {
        file: 'document-linking/x.ts',
        source: `await db.updateTable('applications').set({ manual: true, reden }).execute();`,
      },
      {
        file: 'case-mirror/z.ts',
        source: 'await sql`UPDATE applications SET manual = false, reden = NULL WHERE id = ${id}`.execute(db);',
      },
      { file: 'notifications/x.ts', source: `await db.insertInto('audit_rows').values(row).execute();` },
      { file: 'change-requests/x.ts', source: `const CLAIM = { table: 'case_mirrors', key: 'referentie' };` },
    ];
    const lifecycle = 'drafts/, submission/, assessment/, admin-cases/';
    expect(violations(files)).toEqual([
      'drafts/x.ts:1 writes outbox (insert), which the service kit owns',
      'assessment/x.ts:1 writes document_link_jobs (delete), which document-linking/ owns',
      `case-mirror/x.ts:1 writes applications (update of manual, status_tag), which ${lifecycle} owns`,
      `case-mirror/y.ts:1 writes applications (update), which ${lifecycle} owns`,
      'notifications/x.ts:1 writes audit_rows, which has no owner in TABLE_OWNERS',
      'change-requests/x.ts:1 writes case_mirrors (update), which case-mirror/ owns',
    ]);
  });

  it('when a write is only named in a comment or in prose, then it is no write', () => {
    const source = [
      "// INSERT INTO outbox is the kit’s; see deleteFrom('applications') in drafts.",
      '/* UPDATE applications SET status_tag = 1 */',
      "const url = 'http://example/*not a comment*/'; logger.warn('could not update the case');",
      'const q = sql`SELECT 1 // not a comment: ${x} INSERT INTO document_link_jobs VALUES (1)`;',
    ].join('\n');
    expect(tableWrites(source)).toEqual([{ table: 'document_link_jobs', kind: 'insert', columns: '*', line: 4 }]);
  });
});
