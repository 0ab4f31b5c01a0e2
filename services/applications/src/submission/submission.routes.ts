import { applications } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import { IdParams } from '../cases/application.schemas';
import { ownerOf } from '../cases/owner';
import type { Context } from '../context';
import { SubmitApplicationRequest, SubmitApplicationResponse } from './submission.schemas';
import { requireSubmittable, submitApplication } from './submit-application';

const submitApplicationOperation = defineOperation({
  rule: applications.routes.submitApplication,
  operationId: 'submitApplication',
  summary: 'Submit an application',
  description:
    'Rules in order, the first failing one answers 400 naming the fields: (1) intake: ' +
    '`diplomaHerkomst` digitaal or handmatig; `uren` an integer ≥ 1; (2) every category the answers make ' +
    'required has a `documents` entry (`digitaal` with an upload of the caller in that category, ' +
    'or `post` where allowed); (3) intake below `scholingThreshold`: the scholing answer (slug ' +
    '`scholing-incompleet`). Success: `Ingediend` with an `AV-<year>-<6 digits>` referentie, ' +
    'digital documents linked. 409 when no longer `Concept`; ' +
    '503 when the documents service cannot be reached (nothing changed).',
  params: IdParams,
  body: SubmitApplicationRequest,
  example: { diplomaHerkomst: 'handmatig', uren: 3000, documents: [{ categoryId: 'diploma', channel: 'post' }] },
  load: async (ctx: Context, { params, identity }) => requireSubmittable(ctx, ownerOf(identity), params.id),
  responses: { 200: SubmitApplicationResponse },
  problems: [409, 503],
  handle: async (ctx: Context, { loaded, body }) => ({ body: await submitApplication(ctx, loaded, body) }),
});

export const submissionRoutes = [submitApplicationOperation];
