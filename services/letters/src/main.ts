import http from 'node:http';
import { baseConfigSchema, connectEvents, createDatabase, createLogger, ensureDatabaseExists, handleShutdown, listen, loadConfig, migrateToLatest, OutboxRelay, runMain, systemClock } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { LettersDb } from './data-access/letters.tables';

runMain(async () => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8083) }));
  const logger = createLogger('letters', config.LOG_LEVEL);
  await ensureDatabaseExists(config.DATABASE_URL);
  const database = createDatabase<LettersDb>(config.DATABASE_URL, logger, { max: config.DB_POOL_MAX });
  await migrateToLatest(database.db, migrations, logger);
  const events = await connectEvents(config.NATS_URL, 'letters', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, js: events.js, logger });
  await relay.start();

  const app = createApp({
    db: database.db,
    logger,
    clock: systemClock,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness: { database: async () => (await database.pool.query('SELECT 1')).rowCount === 1, nats: events.ready },
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.PORT, config.HOST);
  logger.info({ port }, 'letters service listening');
  handleShutdown(
    { server, closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'nats', close: events.close }, { name: 'database', close: database.close }] },
    logger,
    config.SHUTDOWN_TIMEOUT_MS,
  );
});
