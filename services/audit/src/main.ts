import http from 'node:http';
import { z } from 'zod';
import { baseConfigSchema, connectEvents, createDatabase, createLogger, ensureDatabaseExists, handleShutdown, listen, loadConfig, migrateToLatest, runMain, systemClock } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { AuditDb } from './data-access/audit.tables';
import { AuditConsumer } from './events/audit.consumer';

const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8085),
  AUDIT_CONSUMER: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name').default('audit'),
});

runMain(async () => {
  const config = loadConfig(configSchema);
  const logger = createLogger('audit', config.LOG_LEVEL);
  await ensureDatabaseExists(config.DATABASE_URL);
  const database = createDatabase<AuditDb>(config.DATABASE_URL, logger, { max: config.DB_POOL_MAX });
  await migrateToLatest(database.db, migrations, logger);
  const events = await connectEvents(config.NATS_URL, 'audit', logger);
  const consumer = new AuditConsumer({ events, db: database.db, logger: logger.child({ subsystem: 'audit-consumer' }), durable: config.AUDIT_CONSUMER });
  await consumer.start();

  const app = createApp({
    db: database.db,
    logger,
    clock: systemClock,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness: {
      database: async () => (await database.pool.query('SELECT 1')).rowCount === 1,
      nats: events.ready,
      consumer: async () => consumer.isRunning(),
    },
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.PORT, config.HOST);
  logger.info({ port }, 'audit service listening');
  handleShutdown(
    { server, closers: [{ name: 'consumer', close: () => consumer.stop() }, { name: 'nats', close: events.close }, { name: 'database', close: database.close }] },
    logger,
    config.SHUTDOWN_TIMEOUT_MS,
  );
});
