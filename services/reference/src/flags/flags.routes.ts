import { z } from 'zod';
import { reference } from '@register/contracts';
import { currentCorrelationId, defineOperation, pageQuery, sendCached } from '@register/service-kit';
import type { Context } from '../context';
import { pageOf } from '../snapshot/page-of';
import { FeatureFlag, FlagParams, SetFeatureFlagRequest } from './flags.schemas';
import { requireFlag, setFlag } from './set-flag';

const listFeatureFlags = defineOperation({
  rule: reference.routes.flags,
  operationId: 'listFeatureFlags',
  summary: 'List the feature flags',
  description:
    'Every feature flag and whether it is on. `herregistratie-aanvragen` gates applying for herregistratie. ' +
    'Answers carry a strong `ETag`; `If-None-Match` with the current ETag gives 304. Paged with `limit` ' +
    '(1–1000) and `cursor` like every list; `Link: rel="next"` names the next page while flags remain.',
  query: pageQuery,
  responses: { 200: z.array(FeatureFlag), 304: null },
  handle: (ctx: Context, { query, req, res }) =>
    query.limit === undefined && query.cursor === undefined
      ? sendCached(req, res, ctx.snapshot.featureFlags(), 'no-store')
      : pageOf(ctx.snapshot.featureFlagList(), (f) => f.key, query, req.originalUrl),
});

const setFeatureFlag = defineOperation({
  rule: reference.routes.setFlag,
  operationId: 'setFeatureFlag',
  summary: 'Switch a feature flag on or off',
  description:
    'Writes a `flag:set` audit row and tells every service at once (their caches ' +
    'drop the old value). An unknown key is a bare 404, also with an invalid body.',
  params: FlagParams,
  body: SetFeatureFlagRequest,
  example: { enabled: false },
  load: async (ctx: Context, { params }) => requireFlag(ctx, params.key),
  responses: { 204: null },
  handle: async (ctx: Context, { params, body, identity }) => {
    await setFlag(ctx, identity, params.key, body.enabled, currentCorrelationId());
    // This replica serves the change at once; the others on the flag-changed event.
    await ctx.snapshot.reload();
    return {};
  },
});

/** Other services read the flags here (the kit's flags client caches them). */
const internalFlags = defineOperation({
  internal: { method: 'GET', path: '/internal/flags' },
  operationId: 'internalFlags',
  summary: 'List the feature flags (internal)',
  responses: { 200: z.array(FeatureFlag) },
  handle: (ctx: Context, { req, res }) => sendCached(req, res, ctx.snapshot.featureFlags(), 'no-store'),
});

export const flagsRoutes = [listFeatureFlags, setFeatureFlag, internalFlags];
