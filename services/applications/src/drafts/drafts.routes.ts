import { z } from 'zod';
import { applications } from '@register/contracts';
import { defineOperation, pageQuery } from '@register/service-kit';
import { ApplicationDetail, ApplicationSummary, IdParams } from '../cases/application.schemas';
import { toDetail } from '../cases/application-views';
import { ownerOf } from '../cases/owner';
import { pageReply, pageRequest } from '../cases/paging';
import type { Context } from '../context';
import { getUploadTarget } from './upload-target.routes';
import { createApplication } from './create-application';
import { deleteApplication } from './delete-application';
import { CreateApplicationRequest, DraftSyncRequest } from './drafts.schemas';
import { requireOwned } from './get-application';
import { syncDraft } from './sync-draft';

const listApplications = defineOperation({
  rule: applications.routes.listApplications,
  operationId: 'listApplications',
  summary: "List the caller's own applications",
  description:
    'Newest first, owner unmasked, read through the case source. Paged with `limit` (1–1000; ' +
    'without it at most 1000 rows) and `cursor`; `Link: rel="next"` names the next page while rows remain.',
  query: pageQuery,
  responses: { 200: z.array(ApplicationSummary) },
  handle: async (ctx: Context, { query, identity, req }) =>
    pageReply(req.originalUrl, await ctx.cases.listOwn(ownerOf(identity), pageRequest(query))),
});

const createApplicationOperation = defineOperation({
  rule: applications.routes.createApplication,
  operationId: 'createApplication',
  summary: 'Start an application',
  description:
    '201 with `Location`. `type` is `intake` or `herregistratie`. 409 when the caller already has a ' +
    '`Concept` of that type, or for a herregistratie while ' +
    'the dashboard says `eligibleForHerregistratie: false`.',
  body: CreateApplicationRequest,
  example: { type: 'intake' },
  responses: { 201: ApplicationDetail },
  problems: [409],
  handle: async (ctx: Context, { body, identity }) => {
    const detail = await createApplication(ctx, ownerOf(identity), body.type);
    return { status: 201, body: detail, headers: { Location: `/api/v1/applications/${detail.id}` } };
  },
});

const getApplication = defineOperation({
  rule: applications.routes.getApplication,
  operationId: 'getApplication',
  summary: "Read one of the caller's applications",
  description: "With its draft. Another owner's application is a bare 404.",
  params: IdParams,
  responses: { 200: ApplicationDetail },
  handle: async (ctx: Context, { params, identity }) => ({
    body: toDetail(await requireOwned(ctx, ownerOf(identity), params.id)),
  }),
});

const syncDraftOperation = defineOperation({
  rule: applications.routes.syncDraft,
  operationId: 'syncDraft',
  summary: 'Save the draft and the wizard step',
  description:
    '204. 400 when `stepCount < 1`, `stepIndex < 0`, `stepIndex >= stepCount`, ' +
    'or the serialized `draft` exceeds 256 KiB (each named in `errors`); ' +
    '409 when the application is no longer `Concept`. An unknown application is 404 before any 400.',
  params: IdParams,
  body: DraftSyncRequest,
  example: { draft: { stap: 'diploma' }, stepIndex: 1, stepCount: 4, documentIds: [] },
  load: async (ctx: Context, { params, identity }) => requireOwned(ctx, ownerOf(identity), params.id),
  responses: { 204: null },
  problems: [409],
  handle: async (ctx: Context, { loaded, body }) => {
    await syncDraft(ctx, loaded.id, body);
    return {};
  },
});

const deleteApplicationOperation = defineOperation({
  rule: applications.routes.deleteApplication,
  operationId: 'deleteApplication',
  summary: 'Delete a draft application',
  description: '204 only while `Concept`; 409 once submitted.',
  params: IdParams,
  responses: { 204: null },
  problems: [409],
  handle: async (ctx: Context, { params, identity }) => {
    await deleteApplication(ctx, ownerOf(identity), params.id);
    return {};
  },
});

export const draftsRoutes = [
  listApplications,
  createApplicationOperation,
  getApplication,
  syncDraftOperation,
  deleteApplicationOperation,
  getUploadTarget,
];
