import { applications } from '@register/contracts';
import { defineOperation, nextLink, pageQuery } from '@register/service-kit';
import type { Context } from '../context';
import { caseMirrorOverview, caseMirrorStatus, retryCaseMirror } from './case-mirror-admin';
import { CaseMirrorOverview, CaseMirrorStatus, ReferentieParams } from './case-mirror-admin.schemas';

const getCaseMirror = defineOperation({
  rule: applications.routes.caseMirror,
  operationId: 'getCaseMirror',
  summary: 'The case mirror: counts and every owed or diverged case',
  description:
    'Counts of owed, diverged and past-window cases and of the divergences healed in the ' +
    'last 24 hours, and every case that is owed or diverged (by `referentie`; ' +
    'no personal data). `cases` is paged with `limit` (1–1000; without it at most 1000) ' +
    'and `cursor`; `Link: rel="next"` names the next page. Mirroring off: counts 0 and no cases.',
  query: pageQuery,
  responses: { 200: CaseMirrorOverview },
  handle: async (ctx: Context, { query, req }) => {
    const { overview, nextCursor } = await caseMirrorOverview(ctx, query);
    const headers: Record<string, string> = nextCursor ? { Link: nextLink(req.originalUrl, nextCursor) } : {};
    return { body: overview, headers };
  },
});

const retryCase = defineOperation({
  rule: applications.routes.retryCaseMirror,
  operationId: 'retryCaseMirror',
  summary: 'Try a case again now',
  description:
    'The case is tried again at once from its last completed step, ' +
    "with its attempts reset, also past the reconciler's window (which then starts anew). " +
    'Writes a `zaaksysteem-retry` audit row. 409 when nothing is owed.',
  params: ReferentieParams,
  responses: { 202: null },
  problems: [409],
  handle: async (ctx: Context, { params, identity }) => {
    await retryCaseMirror(ctx, identity, params.referentie);
    return { status: 202 };
  },
});

/** For the gateway's system status (GET /api/v1/admin/system). */
const getCaseMirrorStatus = defineOperation({
  internal: { method: 'GET', path: '/internal/case-mirror/status' },
  operationId: 'getCaseMirrorStatus',
  summary: 'The case mirror for the system status',
  responses: { 200: CaseMirrorStatus },
  handle: async (ctx: Context) => ({ body: await caseMirrorStatus(ctx) }),
});

export const caseMirrorAdminRoutes = [getCaseMirror, retryCase, getCaseMirrorStatus];
