import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { DurableConsumer, openEventBus, openServiceDatabase, OutboxRelay, SUBJECTS, systemClock, type Logger } from '@register/service-kit';
import { migrations } from '../migrations';
import { createApp } from './app';
import type { DocumentsConfig } from './config';
import type { DocumentsDb } from './data-access/documents.table';
import { createObjectStorage, type ObjectStorage } from './data-access/object-storage';
import { onApplicationDeleted } from './domain/application-deleted';
import { startSweeper, sweepOrphans, type SweepResult } from './domain/sweeper';

export interface DocumentsService {
  app: Express;
  db: Kysely<DocumentsDb>;
  storage: ObjectStorage;
  /** One sweep now (the interval runs it too). */
  sweep(): Promise<SweepResult>;
  /** In shutdown order, after the HTTP server stopped. */
  closers: Array<{ name: string; close: () => Promise<void> | void }>;
}

/** Wires the real adapters: Postgres (migrated), NATS with the outbox relay, the S3 bucket and the sweeper. */
export async function startDocuments(config: DocumentsConfig, logger: Logger): Promise<DocumentsService> {
  const database = await openServiceDatabase<DocumentsDb>(config.DATABASE_URL, logger.child({ subsystem: 'db' }), migrations, { max: config.DB_POOL_MAX });
  const events = await openEventBus(config.NATS_URL, 'documents', logger.child({ subsystem: 'nats' }));
  const storage = createObjectStorage({ endpoint: config.S3_ENDPOINT, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY, bucket: config.S3_BUCKET, region: config.S3_REGION });
  await storage.ensureBucket();
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger: logger.child({ subsystem: 'outbox' }) });
  await relay.start();
  const clock = systemClock;
  const sweeperDeps = { db: database.db, storage, logger: logger.child({ subsystem: 'sweeper' }), clock };
  const sweeper = startSweeper(sweeperDeps, { intervalMs: config.SWEEP_INTERVAL_MS, minAgeMs: config.SWEEP_MIN_AGE_MS });
  const deletions = new DurableConsumer({
    events,
    durable: config.APPLICATION_EVENTS_CONSUMER,
    filter: SUBJECTS.applicationDeleted,
    logger: logger.child({ subsystem: 'application-events' }),
    handle: (_subject, payload) => onApplicationDeleted({ db: database.db, storage, logger }, payload),
  });
  await deletions.start();
  const app = createApp({
    config: { internalSecret: config.INTERNAL_IDENTITY_SECRET, uploadTmpDir: config.UPLOAD_TMP_DIR },
    db: database.db,
    storage,
    logger,
    clock,
    readiness: { events: () => events.ready(), consumer: async () => deletions.isRunning() },
  });
  return {
    app,
    db: database.db,
    storage,
    sweep: () => sweepOrphans(sweeperDeps, config.SWEEP_MIN_AGE_MS),
    closers: [
      { name: 'sweeper', close: () => sweeper.stop() },
      { name: 'consumer', close: () => deletions.stop() },
      { name: 'outbox', close: () => relay.stop() },
      { name: 'events', close: () => events.close() },
      { name: 'database', close: () => database.close() },
    ],
  };
}
