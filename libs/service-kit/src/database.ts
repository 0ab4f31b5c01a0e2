import { Kysely, PostgresDialect, type MigrationProvider, type Migration, Migrator, sql } from 'kysely';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from './logger';

// Dates stay 'YYYY-MM-DD' strings (no local-time shift); bigint counts fit a JS number here.
pg.types.setTypeParser(1082, (v) => v);
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * Put at the start of a statement's text (`sql\`${prepared}SELECT …\``), it makes the statement a named prepared
 * statement: PostgreSQL parses, analyses and plans it once per connection and afterwards binds and runs it (on
 * this machine parsing and planning were over a third of PostgreSQL's CPU per submit; ADR 0279). Only for a
 * service's hot statements whose text has a handful of forms, and that name the columns they return: a `*` would
 * fail with "cached plan must not change result type" once a migration adds a column while the service runs.
 */
export const prepared = sql.raw('/* prepared */ ');
const PREPARED_MARK = '/* prepared */ ';

/** Statement names by text: the marked texts are few, so this stays small (and stops growing past the bound). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 1000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `prepared_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size < MAX_STATEMENT_NAMES) statementNames.set(text, name);
  }
  return name;
}

/** The pool's client: a statement marked `prepared` goes as a named one (node-postgres prepares it per connection). */
class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    // The prototype's, looked up per call (the pg instrumentation of tracing replaces it) and called on this client.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const query = pg.Client.prototype.query as (this: pg.Client, ...a: unknown[]) => never;
    if (typeof text === 'string' && text.startsWith(PREPARED_MARK) && args.length <= 2)
      return query.call(this, { name: statementName(text), text, values });
    return query.apply(this, args);
  }
}

export interface Database<DB> {
  db: Kysely<DB>;
  pool: pg.Pool;
  /** Readiness: the database answers a query. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Most connections (default 10). */
  max?: number;
  /**
   * Connections kept open however long they idle (default 4, at most `max`): a burst after a quiet spell
   * otherwise pays a new backend (30–40 ms) per request. It counts the outbox relay's LISTEN connection.
   */
  min?: number;
  /** How long a connection above `min` may idle before it is closed (default 30 s). */
  idleTimeoutMs?: number;
  statementTimeoutMs?: number;
}

export const DEFAULT_POOL_MIN = 4;

export function createDatabase<DB>(url: string, logger: Logger, options: DatabaseOptions = {}): Database<DB> {
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max,
    min: Math.min(options.min ?? DEFAULT_POOL_MIN, max),
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30000,
    // The `min` connections idle for hours: probes keep middleboxes from dropping them silently and find a dead peer.
    keepAlive: true,
    keepAliveInitialDelayMillis: 60000,
    statement_timeout: options.statementTimeoutMs ?? 15000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle database client failed'));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const close = async (): Promise<void> => {
    await db.destroy();
    // Kysely ends the pool only if it ever ran a query; `min` connections would otherwise stay open.
    if (!pool.ending) await pool.end();
  };
  return { db, pool, ready: async () => (await pool.query('SELECT 1')).rowCount === 1, close };
}

/**
 * Opens the pool's `min` connections now, so the first requests after start do not each pay a connect.
 * Best effort: a failure leaves them to open on demand, and readiness reports the database.
 */
export async function warmPool(pool: pg.Pool, logger: Logger): Promise<void> {
  const clients = await Promise.allSettled(Array.from({ length: pool.options.min ?? 0 }, () => pool.connect()));
  // Released while the pool is at its minimum, they get no idle timer and stay.
  for (const c of clients) if (c.status === 'fulfilled') c.value.release();
  const failed = clients.find((c) => c.status === 'rejected');
  if (failed) logger.warn({ err: failed.reason }, 'database pool not warmed; connections open on demand');
}

/** Creates the database named in `url` when it does not exist (one database per service). */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '42P04' && err.code !== '23505') throw err; // created concurrently
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * A service's own database at start: created when missing, pooled, migrated to the latest version, `min` connections
 * open.
 */
export async function openServiceDatabase<DB>(
  url: string,
  logger: Logger,
  migrations: Record<string, Migration>,
  options: DatabaseOptions = {},
): Promise<Database<DB>> {
  await ensureDatabaseExists(url);
  const database = createDatabase<DB>(url, logger, options);
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await withMigrationLock(url, () => migrateToLatest(database.db as Kysely<any>, migrations, logger));
  } catch (err) {
    await database.close();
    throw err;
  }
  await warmPool(database.pool, logger);
  return database;
}

/** Any fixed key: advisory locks are per database, and each service has a database of its own. */
const MIGRATION_LOCK_KEY = 0x7265_6769; // 'regi'

/**
 * ADR 0201: replicas starting at once against one database migrate it one after the other: the first runs the
 * migrations, the others find them done. Kysely's Postgres adapter locks its own run too; this lock makes the
 * guarantee the kit's rather than an adapter detail's. A session lock on a connection of its own.
 */
export async function withMigrationLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases the lock, whatever happened to the work.
    await client.end();
  }
}

/**
 * The migrations v1.0.0 shipped, in any service (frozen: the names of v1.0.0's `services/x/migrations/index.ts`).
 * v1.0.0's migrator refuses to start on a database whose ledger names a migration it does not know, so these, and
 * only these, are recorded in the ledger it reads (ADR 0230).
 */
export const V1_0_0_MIGRATIONS: ReadonlySet<string> = new Set([
  '2026-11-22T1400_init',
  '2026-11-22T1500_init',
  '2026-11-22T1600_init',
  '2026-11-22T1900_deleted_applications',
  '2026-11-23T0915_case_mirror',
  '2026-12-01T0900_letters',
  '2026-12-02T0900_brief_revision',
  '2026-12-03T0900_case_mirror_trace',
  '2026-12-20T1000_case_mirror_heals',
]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Kysely's default ledger: the one v1.0.0 reads and writes. */
export const V1_LEDGER = 'kysely_migration';
/** Every migration written after v1.0.0, so that a v1.0.0 pod still starts on a database HEAD has migrated. */
export const LATER_LEDGER = 'register_migration';

/** The names of every migration run on the database, in both ledgers. */
export async function executedMigrations(db: AnyDb): Promise<string[]> {
  const names: string[] = [];
  for (const ledger of [V1_LEDGER, LATER_LEDGER]) {
    if (!(await tableExists(db, ledger))) continue;
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(ledger)}`.execute(db);
    names.push(...rows.map((r) => r.name));
  }
  return names.sort();
}

async function tableExists(db: AnyDb, name: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`SELECT to_regclass(${name}) IS NOT NULL AS found`.execute(db);
  return rows[0]?.found === true;
}

/**
 * A database migrated before the ledgers were split has later migrations in v1.0.0's ledger: they move to the
 * later ledger (in one transaction), after which a v1.0.0 pod starts on it again.
 */
async function moveLaterMigrations(db: AnyDb): Promise<void> {
  if (!(await tableExists(db, V1_LEDGER))) return;
  const known = [...V1_0_0_MIGRATIONS];
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(V1_LEDGER)}
      WHERE name <> ALL(${known}::text[])`.execute(trx);
    if (rows.length === 0) return;
    // Kysely's own ledger shape, so its migrator reads this table as it made it.
    await sql`CREATE TABLE IF NOT EXISTS ${sql.table(LATER_LEDGER)}
      (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`.execute(trx);
    await sql`INSERT INTO ${sql.table(LATER_LEDGER)} (name, timestamp)
      SELECT name, timestamp FROM ${sql.table(V1_LEDGER)} WHERE name <> ALL(${known}::text[])
      ON CONFLICT (name) DO NOTHING`.execute(trx);
    await sql`DELETE FROM ${sql.table(V1_LEDGER)} WHERE name <> ALL(${known}::text[])`.execute(trx);
  });
}

/** A migration a newer version ran and this one does not know: recorded as done, never run (ADR 0230). */
const RAN_BY_A_NEWER_VERSION: Migration = { up: () => Promise.resolve() };

/**
 * Migrations are listed explicitly (frozen, timestamp-named files) so no loader guesses at file names. Those v1.0.0
 * shipped are recorded in its ledger, the others in the later one; a name in either ledger that this version does
 * not know is a newer version's expansion, which this version leaves alone (expand and contract, ADR 0230).
 */
export async function migrateToLatest(db: AnyDb, migrations: Record<string, Migration>, logger: Logger): Promise<void> {
  await moveLaterMigrations(db);
  const v1 = Object.fromEntries(Object.entries(migrations).filter(([name]) => V1_0_0_MIGRATIONS.has(name)));
  const later = Object.fromEntries(Object.entries(migrations).filter(([name]) => !V1_0_0_MIGRATIONS.has(name)));
  await runLedger(db, V1_LEDGER, v1, logger);
  await runLedger(db, LATER_LEDGER, later, logger);
}

async function runLedger(
  db: AnyDb,
  ledger: string,
  migrations: Record<string, Migration>,
  logger: Logger,
): Promise<void> {
  const ran = (await tableExists(db, ledger))
    ? (await sql<{ name: string }>`SELECT name FROM ${sql.table(ledger)}`.execute(db)).rows.map((r) => r.name)
    : [];
  const unknown = Object.fromEntries(
    ran.filter((name) => !(name in migrations)).map((name) => [name, RAN_BY_A_NEWER_VERSION]),
  );
  for (const name of Object.keys(unknown)) logger.info({ migration: name }, 'migration of a newer version left alone');
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve({ ...unknown, ...migrations }) };
  // A migration whose name sorts before one already run still runs: names carry the date they were written, and a
  // name dated ahead of the calendar (three are) would otherwise make every later, truthfully dated one refused.
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    migrationTableName: ledger,
    migrationLockTableName: `${ledger}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) logger.info({ migration: r.migrationName, status: r.status }, 'migration');
  if (error) throw error instanceof Error ? error : new Error('a migration failed', { cause: error });
}
