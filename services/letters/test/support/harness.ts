import http from 'node:http';
import pino from 'pino';
import { createDatabase, connectEvents, migrateToLatest, OutboxRelay, type Clock, type Database, type Events } from '@register/service-kit';
import { createTestDatabase, natsUrl, serve, TEST_SECRET, type TestDatabase } from '@register/testkit';
import { migrations } from '../../migrations';
import { createApp } from '../../src/app';
import type { LettersDb } from '../../src/data-access/letters.tables';

export interface Harness {
  url: string;
  events: Events;
  database: Database<LettersDb>;
  close(): Promise<void>;
}

/** The letters service as it runs in production, on a database of its own and the real NATS. */
export async function startLetters(clock: Clock = { now: () => new Date() }): Promise<Harness> {
  const logger = pino({ level: 'silent' });
  const testDb: TestDatabase = await createTestDatabase('letters');
  const database = createDatabase<LettersDb>(testDb.url, logger);
  await migrateToLatest(database.db, migrations, logger);
  const events = await connectEvents(natsUrl(), 'letters-test', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger, pollIntervalMs: 200 });
  await relay.start();
  const readiness = { database: async () => (await database.pool.query('SELECT 1')).rowCount === 1, events: events.ready };
  const app = createApp({ db: database.db, logger, clock, internalSecret: TEST_SECRET, readiness });
  const server = await serve(http.createServer(app));
  return {
    url: server.url,
    events,
    database,
    async close() {
      await server.close();
      await relay.stop();
      await events.close();
      await database.close();
      await testDb.drop();
    },
  };
}
