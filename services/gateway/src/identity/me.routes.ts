import { capabilitiesOf } from '@register/authz';
import { gateway } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { Me } from './me.schemas';

const getMe = defineOperation({
  rule: gateway.routes.me,
  operationId: 'getMe',
  summary: 'What the caller may do',
  description:
    'The capabilities of the calling identity (practitioner, case handler or both: the union), ' +
    'in code-point order. A portal shows or hides its actions by them; ' +
    'every route still checks its own requirement.',
  tags: ['Identity'],
  responses: { 200: Me },
  handle: (_ctx: Context, { identity }) => ({ body: { capabilities: capabilitiesOf(identity) } }),
});

/** The gateway's own operations (every other public route is proxied to its service). */
export const meRoutes = [getMe];
