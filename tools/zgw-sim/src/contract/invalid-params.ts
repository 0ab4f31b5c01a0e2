import type { InvalidParam } from '../http/zgw-errors';
import type { ContractError } from './contracts';

// Ajv's findings in the words and codes of Django REST framework, as Open Zaak reports them:
// `name` is the camelCase field path joined with dots, `code` DRF's error code.
const FORMAT_REASONS: Record<string, string> = {
  uri: 'Voer een geldige URL in.',
  date: 'Datum heeft het verkeerde formaat. Gebruik een van deze formaten: YYYY-MM-DD.',
  'date-time':
    'Datetime heeft een ongeldig formaat, gebruik 1 van de volgende formaten: ' +
    'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  uuid: 'Moet een geldige UUID zijn.',
  email: 'Voer een geldig e-mailadres in.',
  duration: 'Duur heeft het verkeerde formaat.',
  byte: 'Het bestand is geen geldige base64.',
};

/** Where the failing value sits and what it is, so the message can name it. */
export function toInvalidParams(errors: ContractError[], body: unknown): InvalidParam[] {
  const params: InvalidParam[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const param = toInvalidParam(error, body);
    if (!param) continue;
    const key = `${param.name}|${param.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    params.push(param);
  }
  return params;
}

function toInvalidParam(error: ContractError, body: unknown): InvalidParam | undefined {
  const segments = error.instancePath.split('/').slice(1);
  const where = segments.shift();
  // Wrappers around the real finding (discriminator branches, nullable alternatives).
  if (['if', 'anyOf', 'oneOf', 'allOf', 'then'].includes(error.keyword)) return undefined;
  if (error.keyword === 'type' && error.params['type'] === 'null') return undefined;
  if (where === 'query' && error.keyword === 'additionalProperties') {
    return {
      name: 'nonFieldErrors',
      code: 'unknown-parameters',
      reason: `Onbekende query parameters: ${String(error.params['additionalProperty'])}`,
    };
  }
  if (error.keyword === 'required') segments.push(String(error.params['missingProperty']));
  const name = segments.join('.') || 'nonFieldErrors';
  const value = where === 'requestBody' ? valueAt(body, error.instancePath.split('/').slice(2)) : undefined;
  const param = Object.hasOwn(PARAM_BY_KEYWORD, error.keyword) ? PARAM_BY_KEYWORD[error.keyword] : undefined;
  return param ? param(name, value, error) : { name, code: 'invalid', reason: error.message ?? 'Ongeldige waarde.' };
}

type ParamOf = (name: string, value: unknown, error: ContractError) => InvalidParam;

const invalidChoice: ParamOf = (name, value) => ({
  name,
  code: 'invalid_choice',
  reason: `"${String(value)}" is een ongeldige keuze.`,
});

/** Open Zaak's code and Dutch reason for each schema keyword a value failed. */
const PARAM_BY_KEYWORD: Record<string, ParamOf> = {
  required: (name) => ({ name, code: 'required', reason: 'Dit veld is vereist.' }),
  type: (name, value, error) => typeError(name, String(error.params['type']), value),
  maxLength: (name, _value, error) => ({
    name,
    code: 'max_length',
    reason: `Zorg ervoor dat dit veld niet meer dan ${String(error.params['limit'])} karakters bevat.`,
  }),
  minLength: (name, value, error) =>
    value === ''
      ? { name, code: 'blank', reason: 'Dit veld mag niet leeg zijn.' }
      : {
          name,
          code: 'min_length',
          reason: `Zorg ervoor dat dit veld minimaal ${String(error.params['limit'])} karakters bevat.`,
        },
  enum: invalidChoice,
  const: invalidChoice,
  format: (name, _value, error) => ({
    name,
    code: 'invalid',
    reason: FORMAT_REASONS[String(error.params['format'])] ?? 'Ongeldige waarde.',
  }),
  minimum: (name, _value, error) => ({
    name,
    code: 'min_value',
    reason: `Zorg ervoor dat deze waarde groter is dan of gelijk is aan ${String(error.params['limit'])}.`,
  }),
  maximum: (name, _value, error) => ({
    name,
    code: 'max_value',
    reason: `Zorg ervoor dat deze waarde kleiner is dan of gelijk is aan ${String(error.params['limit'])}.`,
  }),
  pattern: (name) => ({ name, code: 'invalid', reason: 'Deze waarde komt niet overeen met het vereiste patroon.' }),
  parse: (_name, _value, error) => ({
    name: 'nonFieldErrors',
    code: 'parse_error',
    reason: error.message ?? 'Ongeldige JSON.',
  }),
};

function typeError(name: string, expected: string, value: unknown): InvalidParam {
  if (value === null) return { name, code: 'null', reason: 'Dit veld mag niet leeg zijn.' };
  const got = Array.isArray(value) ? 'list' : typeof value;
  switch (expected) {
    case 'object':
      return { name, code: 'invalid', reason: `Ongeldige data. Verwacht een dictionary, kreeg een ${got}.` };
    case 'array':
      return { name, code: 'not_a_list', reason: `Verwachtte een lijst met items, maar kreeg type "${got}".` };
    case 'integer':
    case 'number':
      return { name, code: 'invalid', reason: 'Een geldig getal is vereist.' };
    case 'boolean':
      return { name, code: 'invalid', reason: 'Moet een geldige boolean zijn.' };
    default:
      return { name, code: 'invalid', reason: 'Geen geldige string.' };
  }
}

function valueAt(root: unknown, segments: string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[decodeURIComponent(segment.replace(/~1/g, '/').replace(/~0/g, '~'))];
  }
  return node;
}
