import { ZgwError, type InvalidParam } from './zgw-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Field errors collected the way Django REST framework does: all of them, then one 400. */
export class FieldErrors {
  private readonly params: InvalidParam[] = [];

  add(name: string, code: string, reason: string): void {
    this.params.push({ name, code, reason });
  }

  get empty(): boolean {
    return this.params.length === 0;
  }

  throwIfAny(): void {
    if (this.params.length > 0) throw ZgwError.validation(this.params);
  }
}

export type ReferenceKind =
  /** A relation within the same API (Status.zaak): only this server's URLs can match. */
  | 'local'
  /** A loose foreign key to another API (zaaktype, statustype, informatieobject): Open Zaak fetches unknown URLs. */
  | 'loose';

/**
 * Resolves a URL reference to one of the simulator's resources under `collectionUrl`; records Open
 * Zaak's error for the field otherwise. The simulator knows no other services, so a URL elsewhere
 * cannot be fetched: `bad-url`, as Open Zaak answers for a URL that does not give an HTTP 200.
 */
export function resolveReference<T>(
  errors: FieldErrors,
  field: string,
  url: unknown,
  collectionUrl: string,
  lookup: (uuid: string, url: string) => T | undefined,
  kind: ReferenceKind,
): T | undefined {
  if (typeof url !== 'string') return undefined;
  const prefix = `${collectionUrl}/`;
  const uuid = url.startsWith(prefix) ? url.slice(prefix.length) : undefined;
  if (uuid === undefined || !UUID.test(uuid)) {
    if (kind === 'local') errors.add(field, 'no_match', 'Ongeldige hyperlink - Geen URL match.');
    else errors.add(field, 'bad-url', `De URL ${url} resulteert niet in een HTTP 200.`);
    return undefined;
  }
  const found = lookup(uuid, url);
  if (found === undefined) {
    if (kind === 'local') errors.add(field, 'does_not_exist', 'Ongeldige hyperlink - Object bestaat niet.');
    else errors.add(field, 'bad-url', `De URL ${url} resulteert niet in een HTTP 200.`);
  }
  return found;
}
