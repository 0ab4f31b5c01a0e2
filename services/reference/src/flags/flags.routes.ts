import { z } from 'zod';
import { reference } from '@register/contracts';
import { currentCorrelationId, defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { listFlags } from './flags.repository';
import { FeatureFlag, FlagParams, SetFeatureFlagRequest } from './flags.schemas';
import { requireFlag, setFlag } from './set-flag';

const listFeatureFlags = defineOperation({
  rule: reference.routes.flags,
  operationId: 'listFeatureFlags',
  summary: 'List the feature flags',
  description: 'Every feature flag and whether it is on. `herregistratie-aanvragen` gates applying for herregistratie.',
  responses: { 200: z.array(FeatureFlag) },
  handle: async (ctx: Context) => ({ body: await listFlags(ctx.db) }),
});

const setFeatureFlag = defineOperation({
  rule: reference.routes.setFlag,
  operationId: 'setFeatureFlag',
  summary: 'Switch a feature flag on or off',
  description: 'Writes a `flag:set` audit row and tells every service at once (their caches drop the old value). An unknown key is a bare 404, also with an invalid body.',
  params: FlagParams,
  body: SetFeatureFlagRequest,
  example: { enabled: false },
  load: async (ctx: Context, { params }) => requireFlag(ctx.db, params.key),
  responses: { 204: null },
  handle: async (ctx: Context, { params, body, identity }) => {
    await setFlag(ctx.db, identity, params.key, body.enabled, currentCorrelationId());
    return {};
  },
});

/** Other services read the flags here (the kit's flags client caches them). */
const internalFlags = defineOperation({
  internal: { method: 'GET', path: '/internal/flags' },
  operationId: 'internalFlags',
  summary: 'List the feature flags (internal)',
  responses: { 200: z.array(FeatureFlag) },
  handle: async (ctx: Context) => ({ body: await listFlags(ctx.db) }),
});

export const flagsRoutes = [listFeatureFlags, setFeatureFlag, internalFlags];
