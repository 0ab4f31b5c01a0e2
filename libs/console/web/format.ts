/** Dates as the register's staff read them: Dutch, in Amsterdam's time. */
const dateTime = new Intl.DateTimeFormat('nl-NL', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'Europe/Amsterdam',
});

export function when(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export const DECISIONS: Record<string, string> = {
  allow: 'Toegestaan',
  deny: 'Geweigerd',
  flagged: 'Gemarkeerd',
  accepted: 'Geaccepteerd',
};

export const yesNo = (value: boolean) => (value ? 'Ja' : 'Nee');
