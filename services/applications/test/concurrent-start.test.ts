import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { TEST_SECRET, createTestDatabase, startNeighbour, type Neighbour, type TestDatabase } from '@register/testkit';

// issue 25 §3, ADR 0201: three replicas of the applications service start at the same moment against one empty
// database; it is migrated once and every replica becomes ready.
let database: TestDatabase;
const replicas: Neighbour[] = [];

beforeAll(async () => {
  database = await createTestDatabase('concstart');
});
afterAll(async () => {
  for (const r of replicas) await r.stop();
  await database?.drop();
}, 60_000);

describe('replicas starting against an empty database', () => {
  it('when three start at once, then all are ready on the one migrated database', async () => {
    const started = await Promise.allSettled(
      Array.from({ length: 3 }, () =>
        startNeighbour('applications', {
          database,
          env: { DB_POOL_MAX: '3', REFERENCE_URL: 'http://127.0.0.1:9', DOCUMENTS_URL: 'http://127.0.0.1:9' },
        }),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') replicas.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ready'))).toEqual([
      'ready',
      'ready',
      'ready',
    ]);
    for (const r of replicas) expect((await fetch(`${r.url}/health/ready`)).status).toBe(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows: all } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM kysely_migration');
      expect(all[0]!.n).toBeGreaterThan(0);
      expect((await client.query('SELECT 1 FROM applications LIMIT 1')).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});

describe('main.js migrate', () => {
  it('when run against an empty database, then it migrates it and exits 0 without serving', async () => {
    const empty = await createTestDatabase('migrateonly');
    try {
      const script = path.resolve(__dirname, '..', 'dist', 'src', 'main.js');
      const child = spawn(process.execPath, [script, 'migrate'], {
        env: {
          PATH: process.env['PATH'],
          PORT: '0',
          DATABASE_URL: empty.url,
          NATS_URL: 'nats://127.0.0.1:9',
          INTERNAL_IDENTITY_SECRET: TEST_SECRET,
          REFERENCE_URL: 'http://127.0.0.1:9',
          DOCUMENTS_URL: 'http://127.0.0.1:9',
          LOG_LEVEL: 'warn',
          METRICS_PORT: 'off',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      try {
        expect((await client.query('SELECT 1 FROM applications LIMIT 1')).rowCount).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await empty.drop();
    }
  }, 60_000);
});
