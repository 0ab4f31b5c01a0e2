import { gateway } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { systemStatus } from './system-status';
import { SystemStatus } from './system.schemas';

const getSystemStatus = defineOperation({
  rule: gateway.routes.system,
  operationId: 'getSystemStatus',
  summary: 'Readiness, dependencies, breakers and backlogs of the whole system',
  description:
    "Each service's readiness and its checks; the dependencies behind them (PostgreSQL, " +
    "NATS, S3, the zaaksysteem, the identity provider); the gateway's breaker per upstream; " +
    "the case mirror's backlog; each durable consumer's pending events.",
  responses: { 200: SystemStatus },
  handle: async (ctx: Context) => ({ body: await systemStatus(ctx) }),
});

export const systemRoutes = [getSystemStatus];
