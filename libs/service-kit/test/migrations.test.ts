import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@register/testkit';
import { migrateToLatest } from '../src/database';
import { createLogger } from '../src/logger';

// ADR 0030: a migration written today may sort before one already run whose name was dated ahead of the calendar
// (2026-12-03T0900_case_mirror_trace was committed on 2026-11-25). A database made before must still take it.
const logger = createLogger('test', 'silent');
let testDb: TestDatabase;
let db: Kysely<any>;
beforeAll(async () => {
  testDb = await createTestDatabase('migrations');
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: testDb.url, max: 2 }) }) });
});
afterAll(async () => {
  await db?.destroy();
  await testDb?.drop();
});

const table = (name: string): Migration => ({
  up: async (k) => {
    await k.schema.createTable(name).addColumn('id', 'integer').execute();
  },
});
const executed = async () =>
  (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name);

describe('migrations dated ahead of the calendar', () => {
  it('when a database migrated to a future-dated name later gets a truthfully dated migration, then it runs; a plain Kysely migrator would refuse it', async () => {
    const before = { '2026-11-22T1500_init': table('first'), '2026-12-03T0900_ahead': table('ahead') };
    await migrateToLatest(db, before, logger);
    expect(await executed()).toEqual(['2026-11-22T1500_init', '2026-12-03T0900_ahead']);

    const after = { ...before, '2026-11-27T1000_today': table('today') };
    const plain = new Migrator({ db, provider: { getMigrations: async () => after } });
    const refused = await plain.migrateToLatest();
    expect(String(refused.error)).toMatch(/corrupted migrations/);

    await migrateToLatest(db, after, logger);
    expect(await executed()).toEqual(['2026-11-22T1500_init', '2026-11-27T1000_today', '2026-12-03T0900_ahead']);
    await sql`SELECT id FROM today`.execute(db);
  });
});
