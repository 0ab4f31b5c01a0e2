import { z } from 'zod';
import { ApplicationStatus, ApplicationSummary } from '../cases/application.schemas';

const s = z.string().nullable();

/** ADR 0008: besluit value → status tag. */
export const BESLUITEN = {
  toekennen: 'Toegekend',
  afwijzen: 'Afgewezen',
  'buiten-behandeling': 'BuitenBehandeling',
} as const;
export const Besluit = z.enum(['toekennen', 'afwijzen', 'buiten-behandeling'], {
  error: 'besluit must be toekennen, afwijzen or buiten-behandeling.',
});
export type Besluit = z.infer<typeof Besluit>;

const BeoordelingDocument = z
  .strictObject({ documentId: s, categoryId: s, fileName: s })
  .meta({ id: 'BeoordelingDocument' });
export const BeoordelingView = z
  .strictObject({
    aanvraag: ApplicationSummary,
    documenten: z.array(BeoordelingDocument).nullable(),
    decisions: z.strictObject({ canBesluiten: z.boolean() }).meta({ id: 'BeoordelingDecisions' }),
  })
  .meta({ id: 'BeoordelingView' });
export type BeoordelingView = z.infer<typeof BeoordelingView>;

/** `toelichting` is required (non-blank) for afwijzen and buiten-behandeling: the besluit rule checks it. */
export const RecordBesluitRequest = z
  .object({ besluit: Besluit, toelichting: z.string().nullish() })
  .meta({ id: 'RecordBesluitRequest' });
export type RecordBesluitRequest = z.output<typeof RecordBesluitRequest>;
export const RecordBesluitResponse = z
  .strictObject({ status: ApplicationStatus })
  .meta({ id: 'RecordBesluitResponse' });
export type RecordBesluitResponse = z.infer<typeof RecordBesluitResponse>;
