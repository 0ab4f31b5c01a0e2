import http from 'node:http';
import {
  FlagsClient,
  InternalClient,
  OutboxRelay,
  connectEvents,
  createDatabase,
  ensureDatabaseExists,
  handleShutdown,
  listen,
  migrateToLatest,
  runMain,
  systemClock,
} from '@register/service-kit';
import { sql } from 'kysely';
import { migrations } from '../migrations';
import { DocumentsClient } from './adapters/documents-client';
import { ReferenceClient } from './adapters/reference-client';
import { createApp } from './app';
import { readConfig } from './config';
import type { AppDatabase } from './data-access/database';
import { seedDemoData } from './data-access/seed-demo';
import { DocumentLinker } from './domain/document-linker';
import { serviceLogger } from './logger';


async function main(): Promise<void> {
  const config = readConfig();
  const logger = serviceLogger(config.LOG_LEVEL);
  await ensureDatabaseExists(config.DATABASE_URL);
  const database = createDatabase<AppDatabase>(config.DATABASE_URL, logger, { max: config.DB_POOL_MAX });
  await migrateToLatest(database.db, migrations, logger);
  await seedDemoData(database.db);
  const events = await connectEvents(config.NATS_URL, 'applications', logger);

  const internal = (baseUrl: string) => new InternalClient({ baseUrl, secret: config.INTERNAL_IDENTITY_SECRET, caller: 'applications' });
  const referenceHttp = internal(config.REFERENCE_URL);
  const documents = new DocumentsClient(internal(config.DOCUMENTS_URL));
  const flags = new FlagsClient(referenceHttp, logger.child({ subsystem: 'flags' }));
  flags.listen(events.nc);
  const linker = new DocumentLinker({ db: database.db, documents, logger: logger.child({ subsystem: 'document-linker' }), pollIntervalMs: config.LINK_POLL_INTERVAL_MS });
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, js: events.js, logger: logger.child({ subsystem: 'outbox' }) });

  const app = createApp({
    config: { scholingThreshold: config.SCHOLING_THRESHOLD, internalSecret: config.INTERNAL_IDENTITY_SECRET },
    db: database.db,
    logger,
    clock: systemClock,
    documents,
    reference: new ReferenceClient(referenceHttp),
    flags,
    linker,
    readiness: {
      database: async () => (await sql`SELECT 1`.execute(database.db), true),
      events: () => events.ready(),
    },
  });
  const server = http.createServer(app);
  const port = await listen(server, config.PORT, config.HOST);
  await relay.start();
  linker.start();
  logger.info({ port }, 'applications listening');

  handleShutdown(
    {
      server,
      closers: [
        { name: 'document-linker', close: () => linker.stop() },
        { name: 'outbox-relay', close: () => relay.stop() },
        { name: 'flags', close: () => flags.close() },
        { name: 'nats', close: () => events.close() },
        { name: 'database', close: () => database.close() },
      ],
    },
    logger,
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

runMain(main);
