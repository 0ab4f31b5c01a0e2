import { todayInAmsterdam } from '@register/service-kit';

/** The year of "today" (Europe/Amsterdam) at a given instant. */
export function yearAt(instant: Date): string {
  return todayInAmsterdam({ now: () => instant }).slice(0, 4);
}

/**
 * `AV-<year>-` (an application, ADR 0005) or `WV-<year>-` (a change request); a sequence adds the
 * number, at least 6 digits: `AV-2026-000042`.
 */
export function referentiePrefix(kind: 'AV' | 'WV', instant: Date): string {
  return `${kind}-${yearAt(instant)}-`;
}

export function formatReferentie(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(6, '0')}`;
}
