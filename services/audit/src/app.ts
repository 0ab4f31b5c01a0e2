import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { createServiceApp, type Clock, type Logger, type ReadinessCheck } from '@register/service-kit';
import type { AuditDb } from './data-access/audit.tables';
import { auditOpenApi } from './routes/audit.openapi';
import { auditRouter } from './routes/audit.routes';

export interface Deps {
  db: Kysely<AuditDb>;
  logger: Logger;
  clock: Clock;
  internalSecret: string;
  readiness: Record<string, ReadinessCheck>;
}

export function createApp(deps: Deps): Express {
  const openApi = auditOpenApi();
  const { app, finish } = createServiceApp({ service: 'audit', logger: deps.logger, internalSecret: deps.internalSecret, readiness: deps.readiness, openApi: () => openApi });
  app.use(auditRouter(deps));
  finish();
  return app;
}
