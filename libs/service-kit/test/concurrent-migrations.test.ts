import { randomUUID } from 'node:crypto';
import { sql, type Migration } from 'kysely';
import pg from 'pg';
import { openServiceDatabase, type Database } from '../src/database';
import { createLogger } from '../src/logger';

// ADR 0201: replicas of one service starting at the same moment against an empty database migrate it once.
const logger = createLogger('test', 'silent');
const admin = process.env['TEST_PG_URL'] as string;
const name = `concmig_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
const url = Object.assign(new URL(admin), { pathname: `/${name}` }).toString();

afterAll(async () => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
});

// Each migration leaves one row per time it ran: a second run of either shows as a second row.
const migrations: Record<string, Migration> = {
  '2026-01-01T0000_first': {
    up: async (db) => {
      await db.schema.createTable('runs').addColumn('migration', 'text').execute();
      await sql`INSERT INTO runs VALUES ('first')`.execute(db);
    },
  },
  '2026-01-02T0000_second': {
    up: async (db) => {
      await db.schema.createTable('second').ifNotExists().addColumn('id', 'integer').execute();
      await sql`INSERT INTO runs VALUES ('second')`.execute(db);
    },
  },
};

describe('replicas migrating one database at once', () => {
  it(
    'when six start at the same moment against a database that does ' +
      'not exist yet, then all open it and each migration ran once',
    async () => {
      const opened = await Promise.allSettled(
        Array.from({ length: 6 }, () => openServiceDatabase<unknown>(url, logger, migrations, { max: 2, min: 0 })),
      );
      const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value as Database<unknown>] : []));
      try {
        expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'opened'))).toEqual(
          Array.from({ length: 6 }, () => 'opened'),
        );
        const db = databases[0]!.pool;
        const runs = await db.query<{ migration: string }>('SELECT migration FROM runs ORDER BY migration');
        expect(runs.rows.map((r) => r.migration)).toEqual(['first', 'second']);
        // Both ledgers (ADR 0230): these names are not v1.0.0's, so they are in the later one.
        const done = await db.query<{ name: string }>(
          'SELECT name FROM kysely_migration UNION ALL SELECT name FROM register_migration ORDER BY name',
        );
        expect(done.rows.map((r) => r.name)).toEqual(Object.keys(migrations));
      } finally {
        for (const d of databases) await d.close();
      }
    },
  );
});
