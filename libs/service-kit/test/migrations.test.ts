import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@register/testkit';
import { createDatabase, migrateToLatest, type Database } from '../src/database';
import { createLogger } from '../src/logger';

// ADR 0030: a migration written today may sort before one already run whose name was dated ahead of the calendar
// (2026-12-03T0900_case_mirror_trace was committed on 2026-11-25). A database made before must still take it.
const logger = createLogger('test', 'silent');
let testDb: TestDatabase;
let database: Database<any>;
let db: Kysely<any>;
beforeAll(async () => {
  testDb = await createTestDatabase('migrations');
  // The kit's pool, as a service has it: its idle clients may be cut by the forced drop before they have closed.
  database = createDatabase(testDb.url, logger, { max: 2, min: 0 });
  db = database.db;
});
afterAll(async () => {
  await database?.close();
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
