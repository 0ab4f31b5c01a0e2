import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { tableWrites } from './support/table-writes';

/**
 * Which part of the service writes which table (ADR 0253). An owner is a path under `src/`: a feature folder, or
 * one file. Any other part that needs a change in the table calls its owner's function in its own transaction.
 * `applications` has one owner per change of an application; the attention flag (`manual`, `reden`) is also set
 * by the two background features that give up on a case, and by nothing else.
 */
interface Ownership {
  owners: string[];
  /** Parts that may UPDATE only these columns of the table. */
  flag?: { by: string[]; columns: string[] };
}

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

interface SourceFile {
  /** Relative to src/, with forward slashes. */
  file: string;
  source: string;
}

/** One sentence per write that its file may not make. */
function violations(files: SourceFile[], owners: Record<string, Ownership> = TABLE_OWNERS): string[] {
  const found: string[] = [];
  for (const { file, source } of files) {
    for (const write of tableWrites(source)) {
      const at = `${file}:${write.line}`;
      const ownership = owners[write.table];
      if (!ownership) {
        found.push(`${at} writes ${write.table}, which has no owner in TABLE_OWNERS`);
        continue;
      }
      if (ownership.owners.some((owner) => file.startsWith(owner))) continue;
      const flag = ownership.flag;
      const flagOnly =
        flag !== undefined &&
        write.kind === 'update' &&
        write.columns !== '*' &&
        flag.by.some((by) => file.startsWith(by)) &&
        write.columns.every((column) => flag.columns.includes(column));
      if (flagOnly) continue;
      const by = ownership.owners.length > 0 ? ownership.owners.join(', ') : 'the service kit';
      const what = write.columns === '*' ? write.kind : `${write.kind} of ${write.columns.join(', ')}`;
      found.push(`${at} writes ${write.table} (${what}), which ${by} owns`);
    }
  }
  return found;
}

const SRC = path.join(__dirname, '..', 'src');

function sourcesOf(dir: string): SourceFile[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f.split(path.sep).join('/'), source: readFileSync(path.join(dir, f), 'utf8') }));
}

/** The tables of `AppDatabase` in src/database.ts, and the kit's outbox it extends. */
function databaseTables(): string[] {
  const text = readFileSync(path.join(SRC, 'database.ts'), 'utf8');
  const body = /interface AppDatabase extends WithOutbox \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]!).concat('outbox');
}

describe('table ownership (ADR 0253)', () => {
  it('when the database has a table, then TABLE_OWNERS names its owner, and names no table the database lacks', () => {
    const tables = databaseTables();
    expect(tables.length).toBeGreaterThan(1);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('when src/ is read, then no part of it writes a table another feature or the kit owns', () => {
    expect(violations(sourcesOf(SRC))).toEqual([]);
  });

  it('when src/ is read, then every table but the outbox is seen written by its owners (the scan is not blind)', () => {
    const written = new Set(sourcesOf(SRC).flatMap(({ source }) => tableWrites(source).map((w) => w.table)));
    const unseen = Object.entries(TABLE_OWNERS)
      .filter(([table, o]) => o.owners.length > 0 && !written.has(table))
      .map(([table]) => table);
    expect(unseen).toEqual([]);
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
