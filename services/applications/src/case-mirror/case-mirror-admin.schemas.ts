import { z } from 'zod';

const timestamp = z.string().nullable().meta({ format: 'date-time', description: 'RFC 3339 UTC with milliseconds' });

export const MirrorCaseView = z
  .strictObject({
    referentie: z.string().meta({ example: 'AV-2026-000042' }),
    state: z
      .enum(['owed', 'diverged'])
      .meta({ description: '`owed`: work to do; `diverged`: the reconciler retries it' }),
    step: z
      .string()
      .nullable()
      .meta({ description: 'The last completed step (null: none yet)', example: 'rol:initiator' }),
    attempts: z.number().int(),
    lastError: z.string().nullable().meta({ description: 'What failed, without personal data' }),
    divergedAt: timestamp,
    nextAttemptAt: timestamp,
    pastWindow: z.boolean().meta({ description: "The reconciler's window is over: only a person brings it back" }),
  })
  .meta({ id: 'MirrorCase' });
export type MirrorCaseView = z.infer<typeof MirrorCaseView>;

export const CaseMirrorOverview = z
  .strictObject({
    counts: z.strictObject({
      owed: z.number().int(),
      diverged: z.number().int(),
      pastWindow: z.number().int(),
      healedLast24h: z.number().int(),
    }),
    cases: z.array(MirrorCaseView).meta({ description: 'Every owed or diverged case, by referentie; paged' }),
  })
  .meta({ id: 'CaseMirrorOverview' });
export type CaseMirrorOverview = z.infer<typeof CaseMirrorOverview>;

export const ReferentieParams = z.object({
  referentie: z.string().meta({ description: 'The case', example: 'AV-2026-000042' }),
});

/** The case mirror as the gateway's system status shows it (internal). */
export const CaseMirrorStatus = z.strictObject({
  enabled: z.boolean(),
  zaaksysteem: z.enum(['ok', 'unavailable', 'not-configured']),
  backlog: z.number().int(),
  diverged: z.number().int(),
  pastWindow: z.number().int(),
});
export type CaseMirrorStatus = z.infer<typeof CaseMirrorStatus>;
