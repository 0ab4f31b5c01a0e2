import { z } from 'zod';
import { letters } from '@register/contracts';
import { currentCorrelationId, defineOperation } from '@register/service-kit';
import { BriefQuery } from '../briefs/briefs.schemas';
import type { Context } from '../context';
import { revealRegisterNummer } from './reveal-registernummer';

export const RevealRegisterNummerResponse = z
  .strictObject({
    registerNummer: z.string().nullable().meta({ description: 'Unmasked; null when the case has none.' }),
  })
  .meta({ id: 'RevealRegisterNummerResponse' });

/**
 * The query as every brief route describes it (the same description), parsed leniently here: the use case refuses a
 * malformed `referentie` itself (400) so that this attempt, too, writes its audit row.
 */
const RevealQuery = z.object({
  referentie: z
    .unknown()
    .optional()
    .meta({ type: 'string', maxLength: 64, ...BriefQuery.shape.referentie.meta() }),
});

const StepUpHeaders = z.object({
  'x-step-up': z
    .string()
    .optional()
    .meta({ description: '`true`, sent only after an explicit confirmation of the user.' }),
});

const reveal = defineOperation({
  rule: letters.routes.revealRegisterNummer,
  operationId: 'revealRegisterNummer',
  summary: "Reveal the register number of a letter's case",
  description:
    'Needs `canRevealRegisterNummer` (a drafter; else 403 `forbidden`, checked first) ' +
    'and the header `X-Step-Up: true` (else 403 `step-up-required`). Every attempt, ' +
    'allowed or denied, writes one audit row `reveal-registernummer` without ' +
    "personal data. `referentie` addresses a case's brief (unknown: 404).",
  query: RevealQuery,
  headers: StepUpHeaders,
  responses: { 200: RevealRegisterNummerResponse },
  handle: async (ctx: Context, { query, headers, identity }) => ({
    body: await revealRegisterNummer(
      ctx,
      identity,
      query.referentie,
      headers['x-step-up']?.trim().toLowerCase() === 'true',
      currentCorrelationId(),
    ),
  }),
});

export const revealRoutes = [reveal];
