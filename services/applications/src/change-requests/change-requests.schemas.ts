import { z } from 'zod';

/**
 * ADR 0007 answers a bad number with 422 invalid-phone-number, also a missing or non-string one
 * (ADR 0064): such a value reaches the rule as null instead of failing here.
 */
export const ChangeRequestRequest = z
  .object({
    telefoon: z
      .preprocess((v) => (typeof v === 'string' ? v : null), z.string().nullable())
      .meta({ example: '06 12 34 56 78' }),
  })
  .meta({ id: 'ChangeRequestRequest' });

export const ReferentieResponse = z
  .strictObject({ referentie: z.string().nullable() })
  .meta({ id: 'ReferentieResponse' });
