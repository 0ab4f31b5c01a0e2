import { outboxRelay, runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { gatewayApp } from './app';
import { buildContext, configSchema } from './context';
import { idempotencySweeper } from './idempotency/idempotency-sweeper.job';

export const start = runService(module, {
  name: 'gateway',
  configSchema,
  migrations,
  buildContext,
  app: gatewayApp,
  jobs: [outboxRelay, idempotencySweeper],
});
