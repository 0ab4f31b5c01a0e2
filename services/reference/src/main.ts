import { outboxRelay, runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { buildContext, configSchema } from './context';
import { flagsRoutes } from './flags/flags.routes';
import { snapshotRefresh } from './snapshot/snapshot.job';
import { stamdataRoutes } from './stamdata/stamdata.routes';

export const start = runService(module, {
  name: 'reference',
  configSchema,
  migrations,
  buildContext,
  routes: [...stamdataRoutes, ...flagsRoutes],
  jobs: [outboxRelay, snapshotRefresh],
});
