import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import pg from 'pg';
import { freePort } from '@register/embedded';
import { problemErrorHandler } from '@register/problem';
import { createTestDatabase, eventually, type TestDatabase } from '@register/testkit';
import { createLogger } from '../src/logger';

// A PostgreSQL restart under load (issue 25): a request whose database connection is cut, or whose database does
// not accept connections yet, is answered 503 `unavailable` (a retry fixes it), never a 500.
const logger = createLogger('database-unreachable-test', 'silent');
let tdb: TestDatabase;
let admin: pg.Client;
beforeAll(async () => {
  tdb = await createTestDatabase('unreachable');
  admin = new pg.Client({ connectionString: tdb.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await tdb?.drop();
});

/** An app whose one route runs `query` on `pool`, with the kit's error handler; answers on a port of its own. */
async function appOver(pool: pg.Pool, query: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/slow', async (_req, res) => {
    await pool.query(query);
    res.json({ ok: true });
  });
  app.use(problemErrorHandler(logger));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/slow`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('a request whose database goes away', () => {
  it('when its connection is terminated by the server mid-query, then it is answered 503 unavailable', async () => {
    const pool = new pg.Pool({ connectionString: tdb.url, application_name: 'unreachable-victim' });
    pool.on('error', () => undefined);
    const app = await appOver(pool, 'SELECT pg_sleep(30)');
    try {
      const answer = fetch(app.url);
      await eventually(async () => {
        const { rows } = await admin.query<{ terminated: boolean }>(
          `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
           WHERE application_name = 'unreachable-victim' AND query LIKE 'SELECT pg_sleep%'`,
        );
        return rows.some((r) => r.terminated) ? true : undefined;
      });
      const res = await answer;
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ type: '/problems/unavailable', status: 503 });
    } finally {
      await app.close();
      await pool.end();
    }
  });

  it('when the database does not accept connections, then it is answered 503 unavailable', async () => {
    const closed = new URL(tdb.url);
    closed.port = String(await freePort());
    const pool = new pg.Pool({ connectionString: closed.toString() });
    const app = await appOver(pool, 'SELECT 1');
    try {
      const res = await fetch(app.url);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ type: '/problems/unavailable', status: 503 });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});
