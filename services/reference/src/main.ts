import http from 'node:http';
import { baseConfigSchema, connectEvents, createDatabase, createLogger, ensureDatabaseExists, handleShutdown, listen, loadConfig, migrateToLatest, OutboxRelay, runMain, systemClock } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { ReferenceDb } from './data-access/reference.tables';
import { seedReference } from './seed/seed';

runMain(async () => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8084) }));
  const logger = createLogger('reference', config.LOG_LEVEL);
  await ensureDatabaseExists(config.DATABASE_URL);
  const database = createDatabase<ReferenceDb>(config.DATABASE_URL, logger, { max: config.DB_POOL_MAX });
  await migrateToLatest(database.db, migrations, logger);
  await seedReference(database.db);
  const events = await connectEvents(config.NATS_URL, 'reference', logger);
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
  logger.info({ port }, 'reference service listening');
  handleShutdown(
    { server, closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'nats', close: events.close }, { name: 'database', close: database.close }] },
    logger,
    config.SHUTDOWN_TIMEOUT_MS,
  );
});
