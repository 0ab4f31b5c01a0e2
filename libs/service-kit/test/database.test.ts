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

/**
 * The pool's timers on a clock the test moves (network I/O stays real): its idle timeouts pass when the test says,
 * and `jest.getTimerCount()` shows whether any is left that could still close a connection.
 */
async function onFakeClock<T>(work: () => T | Promise<T>): Promise<T> {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

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

  it(
    'when a burst has passed, then connections above min close after the idle ' +
      'timeout while min stay (no timer left to close them), and close() ends every one',
    async () => {
      const { url, name } = poolUrl();
      const database = createDatabase<unknown>(url, logger, { min: 2, max: 6, idleTimeoutMs: IDLE_MS });
      opened.push(database);

      // A burst that needs six connections at once.
      const clients = await Promise.all(Array.from({ length: 6 }, () => database.pool.connect()));
      expect(database.pool.totalCount).toBe(6);
      expect(await backends(testDb.url, name)).toBe(6);

      await onFakeClock(() => {
        clients.forEach((c) => c.release());
        jest.advanceTimersByTime(IDLE_MS - 1);
        expect(database.pool.totalCount).toBe(6);
        jest.advanceTimersByTime(1);
        expect(database.pool.totalCount).toBe(2);
        jest.advanceTimersByTime(IDLE_MS * 100);
        expect({ total: database.pool.totalCount, idle: database.pool.idleCount }).toEqual({ total: 2, idle: 2 });
        expect(jest.getTimerCount()).toBe(0);
      });
      await eventually(async () => ((await backends(testDb.url, name)) === 2 ? true : undefined), 5000, 50);
      expect(await database.ready()).toBe(true);

      await database.close();
      expect(database.pool.totalCount).toBe(0);
      await eventually(async () => ((await backends(testDb.url, name)) === 0 ? true : undefined), 5000, 50);
    },
  );

  it('when min is above max, then max bounds it', async () => {
    const database = createDatabase<unknown>(poolUrl().url, logger, { min: 5, max: 2 });
    opened.push(database);

    expect(database.pool.options.min).toBe(2);
    await database.close();
  });

  it(
    'when a service opens its database, then min connections are ' +
      'open before the first request and stay (no idle timer for them)',
    async () => {
      const { url, name } = poolUrl();

      const database = await onFakeClock(async () => {
        const opening = await openServiceDatabase<unknown>(url, logger, {}, { min: 3, idleTimeoutMs: IDLE_MS });
        opened.push(opening);
        expect({ total: opening.pool.totalCount, idle: opening.pool.idleCount }).toEqual({ total: 3, idle: 3 });
        jest.advanceTimersByTime(IDLE_MS * 100);
        expect(opening.pool.totalCount).toBe(3);
        expect(jest.getTimerCount()).toBe(0);
        return opening;
      });
      expect(await backends(testDb.url, name)).toBe(3);
      await database.close();
      await eventually(async () => ((await backends(testDb.url, name)) === 0 ? true : undefined), 5000, 50);
    },
  );

  it('when the database server refuses connections at start, then opening fails with that error', async () => {
    await expect(
      openServiceDatabase<unknown>('postgres://postgres@127.0.0.1:1/register_down', logger, {}),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it(
    'when the database server accepts but never answers, ' +
      'then opening fails on the connection timeout instead of hanging',
    async () => {
      // A listener that takes the connection and says nothing: without a connection timeout the open would wait
      // forever.
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
    },
  );
});
