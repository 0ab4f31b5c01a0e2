import { runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { auditConsumer } from './audit-consumer/audit.consumer';
import { auditLogRoutes } from './audit-log/audit-log.routes';
import { buildContext, configSchema } from './context';
import { deadLetterRoutes } from './dead-letters/dead-letters.routes';
import { inzageRoutes } from './logbook/inzage.routes';
import { logbookRetention } from './logbook/logbook-retention.job';
import { processingBatchConsumer, processingConsumer } from './logbook/processing.consumer';
import { verwerkingsactiviteitenRoutes } from './verwerkingsactiviteiten/verwerkingsactiviteiten.routes';

export const start = runService(module, {
  name: 'audit',
  configSchema,
  migrations,
  buildContext,
  routes: [...auditLogRoutes, ...deadLetterRoutes, ...verwerkingsactiviteitenRoutes, ...inzageRoutes],
  jobs: [auditConsumer, processingConsumer, processingBatchConsumer, logbookRetention],
});
