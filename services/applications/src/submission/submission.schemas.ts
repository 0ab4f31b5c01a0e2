import { z } from 'zod';
import { ApplicationStatus, int32 } from '../cases/application.schemas';

/**
 * Typed as the contract has them; the values are judged by the submit rules (ADR 0005), which name
 * the field and pick the slug. Bounds match the documents service's link API.
 */
export const DocumentRef = z
  .object({
    categoryId: z.string().max(64).nullish(),
    channel: z.string().max(32).nullish().meta({ description: 'digitaal (an upload, `documentId`) or post' }),
    documentId: z.string().max(128).nullish(),
  })
  .meta({ id: 'DocumentRef' });

/**
 * Rule S1 judges the scholing answers (slug scholing-incompleet): an `aanvullendeScholing` that is not a
 * boolean counts as not answered, and `scholingPunten` may be any number in range (S1 wants an integer ≥ 1).
 */
const aanvullendeScholing = z.preprocess(
  (v) => (v === undefined || v === null || typeof v === 'boolean' ? v : null),
  z.boolean().nullish(),
);
const scholingPunten = z
  .number()
  .min(-2147483648)
  .max(2147483647)
  .nullish()
  .meta({ type: ['integer', 'null'], format: 'int32', description: 'with aanvullendeScholing true: at least 1' });

export const SubmitApplicationRequest = z
  .object({
    diplomaHerkomst: z.string().max(64).nullish().meta({ description: 'intake: digitaal or handmatig' }),
    uren: int32.nullish().meta({ description: 'worked hours, at least 1' }),
    documents: z.array(DocumentRef).max(100).nullish(),
    aanvullendeScholing,
    scholingPunten,
  })
  .meta({ id: 'SubmitApplicationRequest' });
export type SubmitRequest = z.output<typeof SubmitApplicationRequest>;

export const SubmitApplicationResponse = z
  .strictObject({ referentie: z.string().nullable(), status: ApplicationStatus })
  .meta({ id: 'SubmitApplicationResponse' });
export type SubmitApplicationResponse = z.infer<typeof SubmitApplicationResponse>;
