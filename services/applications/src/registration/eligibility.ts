import { addMonths, todayInAmsterdam } from '@register/service-kit';
import type { Context } from '../context';
import type { HerregistratieDecisions, Registration } from './registration.schemas';

export type HerregistratieReason = 'niet-geregistreerd' | 'doorgehaald' | 'geschorst' | 'te-vroeg' | 'uitgeschakeld';

export const HERREGISTRATIE_FLAG = 'herregistratie-aanvragen';

/**
 * ADR 0007: the one rule behind the dashboard's flag AND the 409 on creating a herregistratie,
 * so the two cannot disagree. The first reason that applies wins.
 */
export function herregistratieDecisions(
  registration: Registration,
  today: string,
  flagEnabled: boolean,
): HerregistratieDecisions {
  const reason = firstReason(registration, today, flagEnabled);
  return { eligibleForHerregistratie: reason === null, herregistratieReason: reason };
}

function firstReason(registration: Registration, today: string, flagEnabled: boolean): HerregistratieReason | null {
  const { tag, herregistratieDatum } = registration.status;
  if (tag === 'NietGeregistreerd') return 'niet-geregistreerd';
  if (tag === 'Doorgehaald') return 'doorgehaald';
  if (tag === 'Geschorst') return 'geschorst';
  // "at most 12 months ahead (or passed)"; YYYY-MM-DD strings compare as dates.
  if (herregistratieDatum === null || herregistratieDatum > addMonths(today, 12)) return 'te-vroeg';
  if (!flagEnabled) return 'uitgeschakeld';
  return null;
}

/** The one place that decides eligibility for a subject: used by the dashboard and by create. */
export async function herregistratieFor(
  ctx: Context,
  subject: string,
): Promise<{ registration: Registration; decisions: HerregistratieDecisions }> {
  const today = todayInAmsterdam(ctx.clock);
  const registration = await ctx.register.registrationOf(subject, today);
  const decisions = herregistratieDecisions(registration, today, await ctx.flags.isEnabled(HERREGISTRATIE_FLAG));
  return { registration, decisions };
}
