import { z } from 'zod';
import { HeaderIdentityProvider } from '@register/authz';
import { baseConfigSchema, createLogger, loadConfig, openEventBus, openServiceDatabase, OutboxRelay, runMain, serveApp, type StartService } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { GatewayDb } from './data-access/gateway.tables';
import { deleteExpired } from './data-access/idempotency.repository';

const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8080),
  APPLICATIONS_URL: z.url().default('http://127.0.0.1:8081'),
  DOCUMENTS_URL: z.url().default('http://127.0.0.1:8082'),
  LETTERS_URL: z.url().default('http://127.0.0.1:8083'),
  REFERENCE_URL: z.url().default('http://127.0.0.1:8084'),
  AUDIT_URL: z.url().default('http://127.0.0.1:8085'),
  UPSTREAM_MAX_SOCKETS: z.coerce.number().int().min(1).max(1024).default(64),
  PROXY_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
});

export const start: StartService = async (env, options = {}) => {
  const config = loadConfig(configSchema, env);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const database = await openServiceDatabase<GatewayDb>(config.DATABASE_URL, logger, migrations, { max: config.DB_POOL_MAX });
  const events = await openEventBus(config.NATS_URL, 'gateway', logger);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger });
  await relay.start();
  const sweeper = setInterval(() => void deleteExpired(database.db).catch((err: unknown) => logger.warn({ err }, 'idempotency sweep failed')), 600_000);
  sweeper.unref();

  const { app, upstreams } = createApp({
    db: database.db,
    logger,
    identityProvider: new HeaderIdentityProvider(),
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    targets: { applications: config.APPLICATIONS_URL, documents: config.DOCUMENTS_URL, letters: config.LETTERS_URL, reference: config.REFERENCE_URL, audit: config.AUDIT_URL },
    readiness: { database: database.ready, events: () => events.ready() },
    maxSocketsPerService: config.UPSTREAM_MAX_SOCKETS,
    proxyTimeoutMs: config.PROXY_TIMEOUT_MS,
  });
  return serveApp(app, {
    port: config.PORT,
    host: config.HOST,
    service: 'gateway',
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    closers: [
      { name: 'sweeper', close: () => clearInterval(sweeper) },
      { name: 'upstream agents', close: () => Object.values(upstreams).forEach((u) => u.agent.destroy()) },
      { name: 'outbox', close: () => relay.stop() },
      { name: 'events', close: () => events.close() },
      { name: 'database', close: database.close },
    ],
    ...options,
  });
};

if (require.main === module) runMain(() => start(process.env));
