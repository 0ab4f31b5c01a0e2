import { baseConfigSchema, connectEvents, createLogger, loadConfig, openServiceDatabase, OutboxRelay, runMain, serveApp, systemClock } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { ReferenceDb } from './data-access/reference.tables';
import { seedReference } from './seed/seed';

runMain(async () => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8084) }));
  const logger = createLogger('reference', config.LOG_LEVEL);
  const database = await openServiceDatabase<ReferenceDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  await seedReference(database.db);
  const events = await connectEvents(config.NATS_URL, 'reference', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, js: events.js, logger });
  await relay.start();

  const app = createApp({
    db: database.db,
    logger,
    clock: systemClock,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness: { database: database.ready, nats: events.ready },
  });
  await serveApp(app, {
    port: config.PORT,
    host: config.HOST,
    service: 'reference',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'nats', close: events.close }, { name: 'database', close: database.close }],
  });
});
