import { z } from 'zod';
import { applications } from '@register/contracts';
import { defineOperation, pageQuery } from '@register/service-kit';
import { ApplicationSummary, IdParams } from '../cases/application.schemas';
import { concernsCases } from '../cases/data-subjects';
import { pageReply, pageRequest } from '../cases/paging';
import type { Context } from '../context';
import { BeoordelingView, RecordBesluitRequest, RecordBesluitResponse } from './assessment.schemas';
import { beoordeling, resolveCaseFor } from './beoordeling';
import { recordBesluit } from './record-besluit';

const listWerkvoorraad = defineOperation({
  rule: applications.routes.werkvoorraad,
  operationId: 'listWerkvoorraad',
  summary: 'List the work queue',
  description:
    'Every application in `Ingediend`, oldest `submittedAt` first, owner masked. Paged with `limit` (1–1000; ' +
    'without it at most 1000 rows) and `cursor`; `Link: rel="next"` names the next page while rows remain.',
  query: pageQuery,
  responses: { 200: z.array(ApplicationSummary) },
  handle: async (ctx: Context, { query, req }) => {
    const page = await ctx.cases.werkvoorraad(pageRequest(query));
    await concernsCases(ctx, page.items);
    return pageReply(req.originalUrl, page);
  },
});

const getBeoordeling = defineOperation({
  rule: applications.routes.beoordeling,
  operationId: 'getBeoordeling',
  summary: 'Read a case for assessment',
  description:
    'Any submitted case (not only those in the queue), resolved through the case listing; owner masked. ' +
    '`decisions.canBesluiten` tells whether a besluit may be recorded (Ingediend only). ' +
    'A `Concept` is not a case: 404. A case whose owner is ' +
    "the caller's own practitioner identity is 403 (audited).",
  params: IdParams,
  load: async (ctx: Context, { params, identity }) =>
    resolveCaseFor(ctx, identity, applications.routes.beoordeling, params.id),
  responses: { 200: BeoordelingView },
  problems: [503],
  handle: async (ctx: Context, { loaded, identity }) => ({ body: await beoordeling(ctx, identity, loaded) }),
});

const recordBesluitOperation = defineOperation({
  rule: applications.routes.besluit,
  operationId: 'recordBesluit',
  summary: 'Record a besluit on a case',
  description:
    '`toekennen` → Toegekend, `afwijzen` → Afgewezen, `buiten-behandeling` → BuitenBehandeling; ' +
    'the last two need a non-blank `toelichting` (400). An unknown case is 404 before any 400; ' +
    "the caller's own application is 403 (audited); " +
    'a case no longer `Ingediend` is 409. Publishes `application.decided`.',
  params: IdParams,
  body: RecordBesluitRequest,
  example: { besluit: 'afwijzen', toelichting: 'Onvoldoende werkervaring aangetoond.' },
  load: async (ctx: Context, { params, identity }) =>
    resolveCaseFor(ctx, identity, applications.routes.besluit, params.id),
  responses: { 200: RecordBesluitResponse },
  problems: [409],
  handle: async (ctx: Context, { loaded, body, identity }) => ({
    body: await recordBesluit(ctx, identity, loaded, body),
  }),
});

export const assessmentRoutes = [listWerkvoorraad, getBeoordeling, recordBesluitOperation];
