export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const amsterdamDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Amsterdam',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const HOUR_MS = 3_600_000;
/**
 * Amsterdam's offset from UTC is a whole number of hours since 1940 (CET/CEST), so its date changes on a UTC hour; kept
 * from 1946, clear of the war years.
 */
const WHOLE_HOUR_OFFSETS_SINCE = Date.UTC(1946, 0, 1);
let kept = { hour: NaN, date: '' };

/**
 * "Today" wherever a rule needs one: the calendar date in Europe/Amsterdam, as YYYY-MM-DD. Kept for the UTC hour
 * it was asked in: every stamdata read asks, ICU's time-zone format is costly on that path, and the date cannot
 * change within a UTC hour.
 */
export function todayInAmsterdam(clock: Clock = systemClock): string {
  const ms = clock.now().getTime();
  if (!(ms >= WHOLE_HOUR_OFFSETS_SINCE)) return amsterdamDate.format(ms);
  const hour = Math.floor(ms / HOUR_MS);
  if (hour !== kept.hour) kept = { hour, date: amsterdamDate.format(ms) };
  return kept.date;
}

/** Strict YYYY-MM-DD that is also a real calendar date (2024-02-30 and 2024-13-01 are not). */
export function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Adds whole months to a YYYY-MM-DD date, clamping to the month's last day. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}
