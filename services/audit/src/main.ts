import { z } from 'zod';
import { baseConfigSchema, createLogger, loadConfig, openEventBus, openServiceDatabase, runMain, serveApp, systemClock, type StartService } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { AuditDb } from './data-access/audit.tables';
import { AuditConsumer } from './events/audit.consumer';

const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8085),
  AUDIT_CONSUMER: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name').default('audit'),
});

export const start: StartService = async (env, options = {}) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger('audit', config.LOG_LEVEL);
  const database = await openServiceDatabase<AuditDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  const events = await openEventBus(config.NATS_URL, 'audit', logger);
  const consumer = new AuditConsumer({ events, db: database.db, logger: logger.child({ subsystem: 'audit-consumer' }), durable: config.AUDIT_CONSUMER });
  await consumer.start();

  const app = createApp({
    db: database.db,
    logger,
    clock: systemClock,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness: {
      database: database.ready,
      events: () => events.ready(),
      consumer: async () => consumer.isRunning(),
    },
  });
  return serveApp(app, {
    port: config.PORT,
    host: config.HOST,
    service: 'audit',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [{ name: 'consumer', close: () => consumer.stop() }, { name: 'events', close: () => events.close() }, { name: 'database', close: database.close }],
    ...options,
  });
};

if (require.main === module) runMain(() => start(process.env));
