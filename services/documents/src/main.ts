import { outboxRelay, runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { adminRoutes } from './admin/admin.routes';
import { contentRoutes } from './content/content.routes';
import { buildContext, configSchema } from './context';
import { applicationDeletedConsumer } from './links/application-deleted.consumer';
import { linksRoutes } from './links/links.routes';
import { sweeperJob } from './sweeper/sweeper.job';
import { uploadsRoutes } from './uploads/uploads.routes';

export const start = runService(module, {
  name: 'documents',
  configSchema,
  migrations,
  buildContext,
  routes: [...uploadsRoutes, ...contentRoutes, ...adminRoutes, ...linksRoutes],
  jobs: [outboxRelay, applicationDeletedConsumer, sweeperJob],
});
