import http from 'node:http';
import pino from 'pino';
import { createDatabase, connectEvents, migrateToLatest, OutboxRelay, type Clock, type Events } from '@register/service-kit';
import { createTestDatabase, natsUrl, serve, TEST_SECRET, type TestDatabase } from '@register/testkit';
import { migrations } from '../../migrations';
import { createApp } from '../../src/app';
import type { ReferenceDb } from '../../src/data-access/reference.tables';
import { seedReference } from '../../src/seed/seed';

export interface Harness {
  url: string;
  events: Events;
  close(): Promise<void>;
}

/** The reference service as it runs in production, on a database of its own and the real NATS. */
export async function startReference(clock: Clock = { now: () => new Date() }): Promise<Harness> {
  const logger = pino({ level: 'silent' });
  const testDb: TestDatabase = await createTestDatabase('reference');
  const database = createDatabase<ReferenceDb>(testDb.url, logger);
  await migrateToLatest(database.db, migrations, logger);
  await seedReference(database.db);
  const events = await connectEvents(natsUrl(), 'reference-test', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger, pollIntervalMs: 200 });
  await relay.start();
  const app = createApp({ db: database.db, logger, clock, internalSecret: TEST_SECRET, readiness: { database: async () => true } });
  const server = await serve(http.createServer(app));
  return {
    url: server.url,
    events,
    async close() {
      await server.close();
      await relay.stop();
      await events.close();
      await database.close();
      await testDb.drop();
    },
  };
}
