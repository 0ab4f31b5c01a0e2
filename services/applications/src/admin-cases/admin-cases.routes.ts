import { z } from 'zod';
import { applications } from '@register/contracts';
import { defineOperation, pageQuery } from '@register/service-kit';
import { ApplicationSummary, IdParams } from '../cases/application.schemas';
import { concernsCases } from '../cases/data-subjects';
import { pageReply, pageRequest } from '../cases/paging';
import type { Context } from '../context';
import { adminDeleteCase } from './delete-case';

const listAdminCases = defineOperation({
  rule: applications.routes.adminCases,
  operationId: 'listAdminCases',
  summary: 'List every case',
  description:
    'Every application of every owner (also `Concept`), oldest `createdAt` first, owner masked. ' +
    'Paged with `limit` (1–1000; without it at most 1000 rows) ' +
    'and `cursor`; `Link: rel="next"` names the next page.',
  query: pageQuery,
  responses: { 200: z.array(ApplicationSummary) },
  handle: async (ctx: Context, { query, req }) => {
    const page = await ctx.cases.all(pageRequest(query));
    await concernsCases(ctx, page.items);
    return pageReply(req.originalUrl, page);
  },
});

const deleteAdminCase = defineOperation({
  rule: applications.routes.adminDeleteCase,
  operationId: 'deleteAdminCase',
  summary: 'Delete a case',
  description:
    'Removes the application in any state, writes a `case:admin-delete` ' +
    'audit row and has the documents service remove its documents.',
  params: IdParams,
  responses: { 204: null },
  handle: async (ctx: Context, { params, identity }) => {
    await adminDeleteCase(ctx, identity, params.id);
    return {};
  },
});

export const adminCasesRoutes = [listAdminCases, deleteAdminCase];
