import { FlagsClient, InternalClient, OutboxRelay, openEventBus, openServiceDatabase, runMain, serveApp, systemClock, type StartService } from '@register/service-kit';
import { migrations } from '../migrations';
import { DocumentsClient } from './adapters/documents-client';
import { ReferenceClient } from './adapters/reference-client';
import { createApp } from './app';
import { readConfig } from './config';
import type { AppDatabase } from './data-access/database';
import { seedDemoData } from './data-access/seed-demo';
import { DocumentLinker } from './domain/document-linker';
import { serviceLogger } from './logger';

export const start: StartService = async (env, options = {}) => {
  const config = readConfig(env);
  const logger = serviceLogger(config.LOG_LEVEL);
  const database = await openServiceDatabase<AppDatabase>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  await seedDemoData(database.db);
  const events = await openEventBus(config.NATS_URL, 'applications', logger);

  const internal = (baseUrl: string) => new InternalClient({ baseUrl, secret: config.INTERNAL_IDENTITY_SECRET, caller: 'applications' });
  const referenceHttp = internal(config.REFERENCE_URL);
  const documents = new DocumentsClient(internal(config.DOCUMENTS_URL));
  const flags = new FlagsClient(referenceHttp, logger.child({ subsystem: 'flags' }));
  flags.listen(events);
  const linker = new DocumentLinker({ db: database.db, documents, logger: logger.child({ subsystem: 'document-linker' }), pollIntervalMs: config.LINK_POLL_INTERVAL_MS });
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger: logger.child({ subsystem: 'outbox' }) });

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
      database: database.ready,
      events: () => events.ready(),
    },
  });
  const served = await serveApp(app, {
    port: config.PORT,
    host: config.HOST,
    service: 'applications',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [
      { name: 'document-linker', close: () => linker.stop() },
      { name: 'outbox-relay', close: () => relay.stop() },
      { name: 'flags', close: () => flags.close() },
      { name: 'events', close: () => events.close() },
      { name: 'database', close: () => database.close() },
    ],
    ...options,
  });
  await relay.start();
  linker.start();
  return served;
};

if (require.main === module) runMain(() => start(process.env));
