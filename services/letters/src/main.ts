import { outboxRelay, runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { briefsRoutes } from './briefs/briefs.routes';
import { decidedConsumer } from './case-briefs/decided.consumer';
import { sharedBriefJob } from './case-briefs/shared-brief.job';
import { buildContext, configSchema } from './context';
import { renderingRouter } from './rendering/rendering.routes';
import { revealRoutes } from './reveal/reveal.routes';
import { templatesRoutes } from './templates/templates.routes';

export const start = runService(module, {
  name: 'letters',
  configSchema,
  migrations,
  buildContext,
  routes: [...briefsRoutes, ...revealRoutes, ...templatesRoutes],
  routers: [renderingRouter],
  jobs: [outboxRelay, decidedConsumer, sharedBriefJob],
});
