import { baseConfigSchema, createLogger, loadConfig, openEventBus, openServiceDatabase, OutboxRelay, runMain, serveApp, systemClock, type StartService } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { ReferenceDb } from './data-access/reference.tables';
import { seedReference } from './seed/seed';

export const start: StartService = async (env, options = {}) => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8084) }), env);
  const logger = createLogger('reference', config.LOG_LEVEL);
  const database = await openServiceDatabase<ReferenceDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  await seedReference(database.db);
  const events = await openEventBus(config.NATS_URL, 'reference', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger });
  await relay.start();

  const app = createApp({
    db: database.db,
    logger,
    clock: systemClock,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness: { database: database.ready, events: () => events.ready() },
  });
  return serveApp(app, {
    port: config.PORT,
    host: config.HOST,
    service: 'reference',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'events', close: () => events.close() }, { name: 'database', close: database.close }],
    ...options,
  });
};

if (require.main === module) runMain(() => start(process.env));
