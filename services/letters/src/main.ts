import { baseConfigSchema, connectEvents, createLogger, loadConfig, openServiceDatabase, OutboxRelay, runMain, serveApp, systemClock } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { LettersDb } from './data-access/letters.tables';

runMain(async () => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8083) }));
  const logger = createLogger('letters', config.LOG_LEVEL);
  const database = await openServiceDatabase<LettersDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  const events = await connectEvents(config.NATS_URL, 'letters', logger);
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
    service: 'letters',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'nats', close: events.close }, { name: 'database', close: database.close }],
  });
});
