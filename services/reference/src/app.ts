import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { createServiceApp, type Clock, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { ReferenceDb } from './data-access/reference.tables';
import { flagsRouter } from './routes/flags.routes';
import { referenceOpenApi } from './routes/reference.openapi';
import { stamdataRouter } from './routes/stamdata.routes';

export interface Deps {
  db: Kysely<ReferenceDb>;
  logger: Logger;
  clock: Clock;
  internalSecret: string;
  readiness: Record<string, ReadinessCheck>;
}

export function createApp(deps: Deps): Express {
  const openApi = referenceOpenApi();
  const { app, finish } = createServiceApp({ service: 'reference', logger: deps.logger, internalSecret: deps.internalSecret, readiness: deps.readiness, openApi: () => openApi });
  app.use(stamdataRouter(deps));
  app.use(flagsRouter(deps));
  finish();
  return app;
}
