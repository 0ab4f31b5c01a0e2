import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { createServiceApp, type Clock, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { LettersDb } from './data-access/letters.tables';
import { lettersOpenApi } from './routes/letters.openapi';

export interface Deps {
  db: Kysely<LettersDb>;
  logger: Logger;
  clock: Clock;
  internalSecret: string;
  readiness: Record<string, ReadinessCheck>;
}

export function createApp(deps: Deps): Express {
  const openApi = lettersOpenApi();
  const { app, finish } = createServiceApp({ service: 'letters', logger: deps.logger, internalSecret: deps.internalSecret, readiness: deps.readiness, openApi: () => openApi });
  finish();
  return app;
}
