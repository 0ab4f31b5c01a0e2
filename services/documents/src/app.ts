import { mkdirSync } from 'node:fs';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { createServiceApp, type Clock, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { DocumentsDb } from './data-access/documents.table';
import type { ObjectStorage } from './data-access/object-storage';
import { documentsOpenApi } from './openapi';
import { internalRouter } from './routes/internal.routes';
import { uploadsRouter } from './routes/uploads.routes';

export interface AppDeps {
  config: { internalSecret: string; uploadTmpDir: string };
  db: Kysely<DocumentsDb>;
  storage: ObjectStorage;
  logger: Logger;
  clock: Clock;
  /** Extra readiness checks (the event transport) beside the database and the storage. */
  readiness?: Record<string, ReadinessCheck>;
}

/** Builds the documents service from injected adapters; never listens. */
export function createApp(deps: AppDeps): Express {
  mkdirSync(deps.config.uploadTmpDir, { recursive: true });
  let openApi: object | null = null;
  const { app, finish } = createServiceApp({
    service: 'documents',
    logger: deps.logger,
    internalSecret: deps.config.internalSecret,
    readiness: {
      database: async () => (await sql`SELECT 1`.execute(deps.db), true),
      storage: () => deps.storage.ready(),
      ...deps.readiness,
    },
    openApi: () => (openApi ??= documentsOpenApi()),
  });
  const useCaseDeps = { db: deps.db, storage: deps.storage, logger: deps.logger, clock: deps.clock };
  app.use(uploadsRouter({ ...useCaseDeps, tmpDir: deps.config.uploadTmpDir }));
  app.use(internalRouter(useCaseDeps));
  finish();
  return app;
}
