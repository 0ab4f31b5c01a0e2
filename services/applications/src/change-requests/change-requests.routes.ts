import { applications } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import { ownerOf } from '../cases/owner';
import type { Context } from '../context';
import { ChangeRequestRequest, ReferentieResponse } from './change-requests.schemas';
import { requestPhoneChange } from './request-phone-change';

const createChangeRequest = defineOperation({
  rule: applications.routes.changeRequest,
  operationId: 'createChangeRequest',
  summary: 'Request a change of phone number',
  description:
    'Spaces, `-`, `.`, `(` and `)` are removed and a leading `+31` or `0031` becomes `0`; ' +
    'the result must be `0` followed by nine digits, otherwise 422 `invalid-phone-number` ' +
    '(also for a missing number). 200 with a `WV-<year>-<6 digits>` referentie.',
  body: ChangeRequestRequest,
  example: { telefoon: '+31 6 1234 5678' },
  responses: { 200: ReferentieResponse },
  problems: [422],
  handle: async (ctx: Context, { body, identity }) => ({
    body: await requestPhoneChange(ctx, ownerOf(identity), body.telefoon),
  }),
});

export const changeRequestsRoutes = [createChangeRequest];
