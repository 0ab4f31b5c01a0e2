import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { createTestDatabase, eventually, type TestDatabase } from '@register/testkit';
import { createDatabase, openServiceDatabase, type Database } from '../src/database';
import { createLogger } from '../src/logger';

const logger = createLogger('test', 'silent');
const IDLE_MS = 200;

/** The pool's connections as the server sees them (each pool in this file has its own application_name). */
async function backends(url: string, applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the database pool', () => {
  let testDb: TestDatabase;
  const opened: Database<unknown>[] = [];

  /** A pool on the test database whose connections carry a name of their own. */
  function poolUrl(): { url: string; name: string } {
    const name = `kit-${randomUUID().slice(0, 8)}`;
    const url = new URL(testDb.url);
    url.searchParams.set('application_name', name);
    return { url: url.toString(), name };
  }

  beforeAll(async () => {
    testDb = await createTestDatabase('kit');
  });
  afterAll(async () => {
    for (const d of opened) await d.close().catch(() => undefined);
    await testDb?.drop();
  });

  it('when a burst has passed, then connections above min close after the idle timeout while min stay, and close() ends every one', async () => {
    const { url, name } = poolUrl();
    const database = createDatabase<unknown>(url, logger, { min: 2, max: 6, idleTimeoutMs: IDLE_MS });
    opened.push(database);

    // A burst that needs six connections at once.
    const clients = await Promise.all(Array.from({ length: 6 }, () => database.pool.connect()));
    clients.forEach((c) => c.release());
    expect(database.pool.totalCount).toBe(6);
    expect(await backends(testDb.url, name)).toBe(6);

    await eventually(async () => (database.pool.totalCount === 2 ? true : undefined), 5000, 20);
    await sleep(IDLE_MS * 5);
    expect({ total: database.pool.totalCount, idle: database.pool.idleCount }).toEqual({ total: 2, idle: 2 });
    expect(await backends(testDb.url, name)).toBe(2);
    expect(await database.ready()).toBe(true);

    await database.close();
    expect(database.pool.totalCount).toBe(0);
    await eventually(async () => ((await backends(testDb.url, name)) === 0 ? true : undefined), 5000, 50);
  });

  it('when min is above max, then max bounds it', async () => {
    const database = createDatabase<unknown>(poolUrl().url, logger, { min: 5, max: 2 });
    opened.push(database);

    expect(database.pool.options.min).toBe(2);
    await database.close();
  });

  it('when a service opens its database, then min connections are open before the first request and stay', async () => {
    const { url, name } = poolUrl();

    const database = await openServiceDatabase<unknown>(url, logger, {}, { min: 3, idleTimeoutMs: IDLE_MS });
    opened.push(database);

    expect({ total: database.pool.totalCount, idle: database.pool.idleCount }).toEqual({ total: 3, idle: 3 });
    await sleep(IDLE_MS * 5);
    expect(await backends(testDb.url, name)).toBe(3);
    await database.close();
    await eventually(async () => ((await backends(testDb.url, name)) === 0 ? true : undefined), 5000, 50);
  });

  it('when the database server refuses connections at start, then opening fails with that error', async () => {
    await expect(
      openServiceDatabase<unknown>('postgres://postgres@127.0.0.1:1/register_down', logger, {}),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('when the database server accepts but never answers, then opening fails on the connection timeout instead of hanging', async () => {
    // A listener that takes the connection and says nothing: without a connection timeout the open would wait forever.
    const silent = net.createServer((socket) => void silent.emit('held', socket));
    const held: net.Socket[] = [];
    silent.on('held', (socket: net.Socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await expect(
        openServiceDatabase<unknown>(`postgres://postgres@127.0.0.1:${port}/register_silent`, logger, {}),
      ).rejects.toThrow(/timeout/i);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      held.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
