// The string formats the three documents use. Ajv knows none of them by default; these follow
// what Open Zaak's Django fields accept, so the simulator refuses neither more nor less.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// `format: byte` (a document's `inhoud`): base64 of RFC 4648, the standard alphabet, padded to a multiple of 4.
// Replaces openapi-backend's own pattern, whose repeated group exhausts V8's regexp stack from a document of
// about 5 MiB on (such a request failed with a 500).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !isDate(match[1] as string)) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4] ?? 0) < 60;
}

// Django's URLValidator: a scheme it knows and a host. Open Zaak leaves an optional URL blank (''),
// in requests and answers alike; a URL that must be given has minLength 1 in the documents.
export function isUrl(value: string): boolean {
  if (value === '') return true;
  if (value.length > 2048 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const FORMATS: Record<string, (value: string) => boolean> = {
  date: isDate,
  'date-time': isDateTime,
  uri: isUrl,
  uuid: (value) => UUID.test(value),
  duration: (value) => DURATION.test(value),
  // Blank is how Open Zaak leaves an optional e-mail address out, as with URLs.
  email: (value) => value === '' || EMAIL.test(value),
  byte: (value) => value.length % 4 === 0 && BASE64.test(value),
};
