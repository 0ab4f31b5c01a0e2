import { addMonths } from './clock';
import type { Registration } from './registration';

export type HerregistratieReason = 'niet-geregistreerd' | 'doorgehaald' | 'geschorst' | 'te-vroeg' | 'uitgeschakeld';

export interface HerregistratieDecisions {
  eligibleForHerregistratie: boolean;
  herregistratieReason: HerregistratieReason | null;
}

export const HERREGISTRATIE_FLAG = 'herregistratie-aanvragen';

/**
 * decisions §7: the one rule behind the dashboard's flag AND the 409 on creating a herregistratie,
 * so the two cannot disagree. The first reason that applies wins.
 */
export function herregistratieDecisions(registration: Registration, today: string, flagEnabled: boolean): HerregistratieDecisions {
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
