import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@register/testkit';
import {
  LATER_LEDGER,
  V1_LEDGER,
  createDatabase,
  executedMigrations,
  migrateToLatest,
  type Database,
} from '../src/database';
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
const executed = () => executedMigrations(db);
const ledger = async (table: string) =>
  (await sql<{ name: string }>`SELECT name FROM ${sql.table(table)} ORDER BY name`.execute(db)).rows.map((r) => r.name);
const tables = async () =>
  (
    await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`.execute(db)
  ).rows.map((r) => r.name);
const dropAll = async () => {
  for (const name of await tables()) await sql`DROP TABLE ${sql.table(name)}`.execute(db);
};

describe('migrations dated ahead of the calendar', () => {
  beforeAll(dropAll);
  it(
    'when a database migrated to a future-dated name later gets a truthfully ' +
      'dated migration, then it runs; a plain Kysely migrator would refuse it',
    async () => {
      const before = { '2026-11-22T1500_init': table('first'), '2026-12-03T0900_ahead': table('ahead') };
      await migrateToLatest(db, before, logger);
      expect(await executed()).toEqual(['2026-11-22T1500_init', '2026-12-03T0900_ahead']);

      const after = { ...before, '2026-11-27T1000_today': table('today') };
      // Kysely alone, on the ledger the kit keeps these later migrations in (ADR 0230).
      const laterOnes = Object.fromEntries(Object.entries(after).filter(([name]) => name !== '2026-11-22T1500_init'));
      const plain = new Migrator({
        db,
        provider: { getMigrations: async () => laterOnes },
        migrationTableName: LATER_LEDGER,
        migrationLockTableName: `${LATER_LEDGER}_lock`,
      });
      const refused = await plain.migrateToLatest();
      expect(String(refused.error)).toMatch(/corrupted migrations/);

      await migrateToLatest(db, after, logger);
      expect(await executed()).toEqual(['2026-11-22T1500_init', '2026-11-27T1000_today', '2026-12-03T0900_ahead']);
      await sql`SELECT id FROM today`.execute(db);
    },
  );
});

// ADR 0230: v1.0.0's migrator (plain Kysely on `kysely_migration`) refuses a database whose ledger names a migration
// it does not know. The migrations v1.0.0 shipped stay in that ledger; every later one is kept in another.
describe('the ledger v1.0.0 reads names only what v1.0.0 shipped', () => {
  const v1 = { '2026-11-22T1500_init': table('v1_first') };
  const later = { ...v1, '2026-11-26T2100_logbook': table('later_one') };
  const asV1 = () =>
    new Migrator({ db, provider: { getMigrations: async () => v1 }, allowUnorderedMigrations: true }).migrateToLatest();
  beforeEach(dropAll);

  it(
    'when HEAD migrates a database v1.0.0 made, then the later migration ' +
      'is in the later ledger and v1.0.0 migrates it again without error',
    async () => {
      expect((await asV1()).error).toBeUndefined();
      await migrateToLatest(db, later, logger);
      expect(await ledger(V1_LEDGER)).toEqual(['2026-11-22T1500_init']);
      expect(await ledger(LATER_LEDGER)).toEqual(['2026-11-26T2100_logbook']);
      await sql`SELECT id FROM later_one`.execute(db);
      expect((await asV1()).error).toBeUndefined();
    },
  );

  it(
    "when a database has a later migration in v1.0.0's ledger (migrated before the ledgers were split), " +
      'then HEAD moves it to the later ledger, runs nothing twice, and v1.0.0 starts on it again',
    async () => {
      const plain = new Migrator({
        db,
        provider: { getMigrations: async () => later },
        allowUnorderedMigrations: true,
      });
      expect((await plain.migrateToLatest()).error).toBeUndefined();
      expect(String((await asV1()).error)).toMatch(
        /corrupted migrations: previously executed migration 2026-11-26T2100_logbook is missing/,
      );
      await migrateToLatest(db, later, logger);
      expect(await ledger(V1_LEDGER)).toEqual(['2026-11-22T1500_init']);
      expect(await ledger(LATER_LEDGER)).toEqual(['2026-11-26T2100_logbook']);
      expect((await asV1()).error).toBeUndefined();
    },
  );

  it(
    'when a newer version ran a migration this one does not know, ' +
      'then this one starts, leaves it recorded and runs its own',
    async () => {
      const newer = { ...later, '2027-01-10T0900_newer': table('newer_one') };
      await migrateToLatest(db, newer, logger);
      const mine = { ...v1, '2026-11-26T2100_logbook': table('later_one'), '2026-12-30T0900_mine': table('mine') };
      await migrateToLatest(db, mine, logger);
      expect(await executed()).toEqual([
        '2026-11-22T1500_init',
        '2026-11-26T2100_logbook',
        '2026-12-30T0900_mine',
        '2027-01-10T0900_newer',
      ]);
      await sql`SELECT id FROM newer_one`.execute(db);
      await sql`SELECT id FROM mine`.execute(db);
    },
  );
});
