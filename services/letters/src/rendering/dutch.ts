/** Beroep codes of the register (stamdata `beroepen`) as a letter names them. */
const BEROEPEN: Readonly<Record<string, string>> = {
  arts: 'arts',
  tandarts: 'tandarts',
  apotheker: 'apotheker',
  'gz-psycholoog': 'gezondheidszorgpsycholoog',
  psychotherapeut: 'psychotherapeut',
  fysiotherapeut: 'fysiotherapeut',
  verloskundige: 'verloskundige',
  verpleegkundige: 'verpleegkundige',
  'physician-assistant': 'physician assistant',
  'klinisch-technoloog': 'klinisch technoloog',
  'orthopedagoog-generalist': 'orthopedagoog-generalist',
  'verpleegkundig-specialist': 'verpleegkundig specialist',
};

export function beroepNaam(code: string | null): string | null {
  return code === null ? null : (BEROEPEN[code] ?? code);
}

const dayFormat = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const amsterdamDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Amsterdam',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `2026-11-22` → `22 november 2026`. */
export function dutchDate(isoDate: string): string {
  return dayFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/** The calendar date in Europe/Amsterdam of a moment (a timestamp or a YYYY-MM-DD date as given). */
export function amsterdamDate(value: Date | string): string | null {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : amsterdamDay.format(date);
}
