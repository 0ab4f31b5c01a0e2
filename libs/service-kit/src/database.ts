import { Kysely, PostgresDialect, type MigrationProvider, type Migration, Migrator } from 'kysely';
import pg from 'pg';
import type { Logger } from './logger';

// Dates stay 'YYYY-MM-DD' strings (no local-time shift); bigint counts fit a JS number here.
pg.types.setTypeParser(1082, (v) => v);
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export interface Database<DB> {
  db: Kysely<DB>;
  pool: pg.Pool;
  /** Readiness: the database answers a query. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export function createDatabase<DB>(url: string, logger: Logger, options: { max?: number; statementTimeoutMs?: number } = {}): Database<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    statement_timeout: options.statementTimeoutMs ?? 15000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle database client failed'));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, ready: async () => (await pool.query('SELECT 1')).rowCount === 1, close: () => db.destroy() };
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

/** A service's own database at start: created when missing, pooled, migrated to the latest version. */
export async function openServiceDatabase<DB>(url: string, logger: Logger, migrations: Record<string, Migration>, options: { max?: number } = {}): Promise<Database<DB>> {
  await ensureDatabaseExists(url);
  const database = createDatabase<DB>(url, logger, options);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await migrateToLatest(database.db as Kysely<any>, migrations, logger);
  return database;
}

/** Migrations are listed explicitly (frozen, timestamp-named files) so no loader guesses at file names. */
export async function migrateToLatest(// eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>, migrations: Record<string, Migration>, logger: Logger): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) logger.info({ migration: r.migrationName, status: r.status }, 'migration');
  if (error) throw error;
}
