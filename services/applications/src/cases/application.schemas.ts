import { z } from 'zod';

// Contract shapes (spec: Application resources); closed objects, every field present (absent is null).
const s = z.string().nullable();
const timestamp = z.string().nullable().meta({ format: 'date-time' });

/** A 32-bit integer, wherever the spec says `int` (ADR 0015: anything outside is a 400). */
export const int32 = z.number().int().min(-2147483648).max(2147483647).meta({ format: 'int32' });

export const APPLICATION_TYPES = ['intake', 'herregistratie'] as const;
export const ApplicationType = z.enum(APPLICATION_TYPES, { error: 'type must be intake or herregistratie.' });
export type ApplicationType = z.infer<typeof ApplicationType>;

export const ApplicationStatus = z
  .strictObject({
    tag: s,
    stepIndex: int32.nullable(),
    stepCount: int32.nullable(),
    referentie: s,
    manual: z.boolean().nullable(),
    reden: s,
  })
  .meta({ id: 'ApplicationStatus' });
export type ApplicationStatus = z.infer<typeof ApplicationStatus>;

export const ApplicationSummary = z
  .strictObject({
    id: s,
    type: s,
    status: ApplicationStatus,
    documentIds: z.array(z.string()).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    submittedAt: timestamp,
    owner: s.meta({ description: 'The owner subject; masked wherever a case handler or admin looks.' }),
  })
  .meta({ id: 'ApplicationSummary' });
export type ApplicationSummary = z.infer<typeof ApplicationSummary>;

export const ApplicationDetail = z
  .strictObject({
    id: s,
    type: s,
    status: ApplicationStatus,
    draft: z.unknown().meta({ description: 'Any JSON value the portal saved (null when none).' }),
    documentIds: z.array(z.string()).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    submittedAt: timestamp,
  })
  .meta({ id: 'ApplicationDetail' });
export type ApplicationDetail = z.infer<typeof ApplicationDetail>;

/** `{id}` of an application or case; anything that is not one of ours is a bare 404, never a 400. */
export const IdParams = z.object({ id: z.string().meta({ example: '3f2b8c1e-8d4a-4c3e-9a51-0d6f1b2a7c90' }) });
