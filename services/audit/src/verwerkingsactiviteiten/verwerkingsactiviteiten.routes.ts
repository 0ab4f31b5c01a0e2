import { z } from 'zod';
import { VERWERKINGSACTIVITEITEN, audit } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';

export const Verwerkingsactiviteit = z
  .strictObject({
    id: z.string().meta({ description: 'URI of the activity; `dpl.core.processing_activity_id` in the logbook' }),
    naam: z.string(),
    doel: z.string(),
    grondslag: z.string(),
    bewaartermijn: z.string().meta({ description: 'ISO 8601 duration the log records are kept (`P7Y`)' }),
  })
  .meta({ id: 'Verwerkingsactiviteit' });

const listVerwerkingsactiviteiten = defineOperation({
  rule: audit.routes.verwerkingsactiviteiten,
  operationId: 'listVerwerkingsactiviteiten',
  summary: 'Read the register of processing activities',
  description:
    'Every processing activity of the register (GDPR art. 30): its URI, name, purpose, legal basis and how ' +
    'long its processing log records are kept. The whole register in one answer: it is a short, fixed list.',
  responses: { 200: z.array(Verwerkingsactiviteit) },
  handle: (_ctx: Context) => ({
    body: VERWERKINGSACTIVITEITEN.map(({ id, naam, doel, grondslag, bewaartermijn }) => ({
      id,
      naam,
      doel,
      grondslag,
      bewaartermijn,
    })),
  }),
});

export const verwerkingsactiviteitenRoutes = [listVerwerkingsactiviteiten];
