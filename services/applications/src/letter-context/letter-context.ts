import type { z } from 'zod';
import { applications } from '@register/contracts';
import { NotFoundError } from '@register/problem';
import { todayInAmsterdam } from '@register/service-kit';
import { findById } from '../applications/application-reads';
import type { Context } from '../context';

export type LetterContext = z.infer<typeof applications.internal.letterContext>;

const NO_CASE = {
  applicationId: null,
  referentie: null,
  type: null,
  besluit: null,
  toelichting: null,
  decidedAt: null,
} as const;

/** The practitioner as the register knows them (letters masks the register number itself). */
async function practitioner(
  ctx: Context,
  subject: string,
): Promise<Pick<LetterContext, 'beroep' | 'zorgverlenerNaam' | 'registerNummer' | 'subject'>> {
  const registration = await ctx.register.registrationOf(subject, todayInAmsterdam(ctx.clock));
  return {
    beroep: registration.beroep,
    zorgverlenerNaam: registration.naam,
    registerNummer: registration.registerNummer,
    subject,
  };
}

/** A decided application's letter context; 404 when unknown or not decided (there is no letter to write yet). */
export async function caseLetterContext(ctx: Context, applicationId: string): Promise<LetterContext> {
  const row = await findById(ctx.db, applicationId);
  if (!row || row.besluit === null || row.decided_at === null) throw new NotFoundError('application');
  return applications.internal.letterContext.parse({
    applicationId: row.id,
    referentie: row.referentie,
    type: row.type,
    besluit: row.besluit,
    toelichting: row.toelichting,
    decidedAt: row.decided_at.toISOString(),
    ...(await practitioner(ctx, row.owner)),
  });
}

/** A practitioner's letter context without a case (the shared working brief); the register fields null when not registered. */
export async function practitionerLetterContext(ctx: Context, subject: string): Promise<LetterContext> {
  return { ...NO_CASE, ...(await practitioner(ctx, subject)) };
}
