import { z } from 'zod';
import { applications } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { findOwned } from '../applications/application-reads';

const { paths, uploadTarget, uploadTargetQuery } = applications.internal;

/**
 * The documents service asks before it stores an upload that names an application (ADR 0006, 0015): only
 * the owner's own application in `Concept` may take new documents; anything else is the caller's 400 there.
 */
export const getUploadTarget = defineOperation({
  internal: { method: 'GET', path: paths.uploadTarget },
  operationId: 'getUploadTarget',
  summary: 'Whether an upload may name this application (internal)',
  params: z.object({ applicationId: z.string().max(200) }),
  query: uploadTargetQuery,
  responses: { 200: uploadTarget },
  handle: async (ctx: Context, { params, query }) => {
    const row = await findOwned(ctx.db, query.owner, params.applicationId);
    return { body: { uploadable: row?.status_tag === 'Concept' } };
  },
});
