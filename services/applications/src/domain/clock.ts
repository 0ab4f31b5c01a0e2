import { addMonths, systemClock, todayInAmsterdam, type Clock } from '@register/service-kit';

export { addMonths, systemClock, todayInAmsterdam, type Clock };

/** Calendar arithmetic on YYYY-MM-DD strings (UTC midnight, so no DST shifts). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The year of "today" (Europe/Amsterdam) at a given instant, for AV-/WV- referenties. */
export function yearAt(instant: Date): string {
  return todayInAmsterdam({ now: () => instant }).slice(0, 4);
}
