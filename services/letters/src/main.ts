import { baseConfigSchema, createLogger, loadConfig, openEventBus, openServiceDatabase, OutboxRelay, runMain, serveApp, systemClock, type StartService } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { LettersDb } from './data-access/letters.tables';

export const start: StartService = async (env, options = {}) => {
  const config = loadConfig(baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8083) }), env);
  const logger = createLogger('letters', config.LOG_LEVEL);
  const database = await openServiceDatabase<LettersDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  const events = await openEventBus(config.NATS_URL, 'letters', logger);
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
    service: 'letters',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [{ name: 'outbox', close: () => relay.stop() }, { name: 'events', close: () => events.close() }, { name: 'database', close: database.close }],
    ...options,
  });
};

if (require.main === module) runMain(() => start(process.env));
