/** Injected so tests can pin "now"; production passes () => new Date(). */
export type Clock = () => Date;

const amsterdamDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' });

/** decisions §2: "today" is the calendar date in Europe/Amsterdam, as YYYY-MM-DD. */
export function todayIn(clock: Clock): string {
  return amsterdamDate.format(clock());
}

/** Calendar arithmetic on YYYY-MM-DD strings (UTC midnight, so no DST shifts). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Adds calendar months, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
