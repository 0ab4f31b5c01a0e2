import { randomUUID } from 'node:crypto';
import { created, ok, type OperationHandler, type OperationRequest, type SimContext } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { amsterdamDate, formatInstant, nowInstant, parseInstant } from '../state/instants';
import { passesElevenTest } from '../state/rsin';
import { identificatieKey, type IndexedMap, type Representation, type ZaakRecord } from '../state/store';
import { renderZaak, zaakFields } from './zaak.representation';

// Fields whose Open Zaak rules need services the simulator does not have (reference lists, other zaken).
const UNSUPPORTED_FIELDS = [
  'communicatiekanaal',
  'selectielijstklasse',
  'hoofdzaak',
  'relevanteAndereZaken',
  'gerelateerdeZaken',
];

export const createZaak: OperationHandler = (request, ctx) => {
  const body = request.body as Representation;
  refuseUnsupportedFields(body);
  const { zaaktype, identificatie } = checkZaak(body, ctx);
  const uuid = randomUUID();
  const startdatum = String(body['startdatum']);
  const record: ZaakRecord = {
    uuid,
    url: `${ctx.urls.zaken}/zaken/${uuid}`,
    fields: zaakFields(body, {
      identificatie: identificatie || ctx.store.nextIdentificatie('ZAAK', startdatum.slice(0, 4)),
      registratiedatum: body['registratiedatum'] ?? amsterdamDate(ctx.now()),
      // zrc-009: without one, the zaak takes the zaaktype's vertrouwelijkheidaanduiding.
      vertrouwelijkheidaanduiding: body['vertrouwelijkheidaanduiding'] ?? zaaktype?.['vertrouwelijkheidaanduiding'],
      laatstGemuteerd: formatInstant(nowInstant(ctx.now())),
    }),
  };
  ctx.store.zaken.set(uuid, record);
  const zaak = renderZaak(record, ctx.store);
  ctx.notifier.zaken('zaak', 'create', record.url, record);
  return created(zaak as Representation & { url: string });
};

/** A field the simulator does not model, given a value: 501 rather than silently dropped. */
function refuseUnsupportedFields(body: Representation): void {
  for (const field of UNSUPPORTED_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) {
      throw new ZgwError(501, 'NotImplemented', `De simulator ondersteunt het veld ${field} niet.`);
    }
  }
}

/** The field checks, then the object-level ones (each group reported together, as Open Zaak does). */
function checkZaak(body: Representation, ctx: SimContext) {
  const errors = new FieldErrors();
  // zrc-001: the zaaktype must be a zaaktype the Catalogi API knows.
  const zaaktype = resolveReference(
    errors,
    'zaaktype',
    body['zaaktype'],
    `${ctx.urls.catalogi}/zaaktypen`,
    (_uuid, url) => ctx.catalogi.zaaktype(url),
    'loose',
  );
  checkRsin(errors, 'bronorganisatie', body['bronorganisatie']);
  checkRsin(errors, 'verantwoordelijkeOrganisatie', body['verantwoordelijkeOrganisatie']);
  if (
    typeof body['laatsteBetaaldatum'] === 'string' &&
    parseInstant(body['laatsteBetaaldatum']).micros > nowInstant(ctx.now()).micros
  ) {
    errors.add('laatsteBetaaldatum', 'future_not_allowed', 'Zorg ervoor dat deze waarde niet in de toekomst ligt.');
  }
  errors.throwIfAny();
  const identificatie = checkZaakRules(body, zaaktype, ctx);
  return { zaaktype, identificatie };
}

function checkZaakRules(body: Representation, zaaktype: Representation | undefined, ctx: SimContext): string {
  const errors = new FieldErrors();
  // zrc-002: identificatie is unique within the bronorganisatie.
  const identificatie = typeof body['identificatie'] === 'string' ? body['identificatie'] : '';
  if (
    identificatie !== '' &&
    findZaken(ctx, { identificatie, bronorganisatie: String(body['bronorganisatie']) }).length > 0
  ) {
    errors.add(
      'identificatie',
      'identificatie-niet-uniek',
      `Deze identificatie (${identificatie}) bestaat al voor deze bronorganisatie`,
    );
  }
  if (body['betalingsindicatie'] === 'nvt' && body['laatsteBetaaldatum']) {
    errors.add(
      'laatsteBetaaldatum',
      'betaling-nvt',
      'Laatste betaaldatum kan niet gezet worden als de betalingsindicatie "nvt" is',
    );
  }
  const producten = body['productenOfDiensten'];
  if (
    Array.isArray(producten) &&
    producten.some((item) => !(zaaktype?.['productenOfDiensten'] as string[]).includes(String(item)))
  ) {
    errors.add(
      'productenOfDiensten',
      'invalid-products-services',
      'Niet alle producten/diensten komen voor in de producten/diensten op het zaaktype',
    );
  }
  errors.throwIfAny();
  return identificatie;
}

export const listZaken: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['identificatie', 'bronorganisatie', 'zaaktype', 'ordering']);
  const zaken = findZaken(ctx, {
    identificatie: request.query.get('identificatie') ?? undefined,
    bronorganisatie: request.query.get('bronorganisatie') ?? undefined,
    zaaktype: request.query.get('zaaktype') ?? undefined,
  }).map((record) => renderZaak(record, ctx.store));
  return ok(paginate(order(zaken, request), request, ctx));
};

export const readZaak: OperationHandler = (request, ctx) => ok(renderZaak(zaakOrNotFound(request, ctx), ctx.store));

/** Open Zaak deletes the zaak with its statussen, rollen and document relations. */
export const deleteZaak: OperationHandler = (request, ctx) => {
  const record = zaakOrNotFound(request, ctx);
  const { store } = ctx;
  const deleteChildren = <T extends { uuid: string; zaakUuid: string }>(map: IndexedMap<T>) => {
    for (const child of store.childrenOf(map, record.uuid)) map.delete(child.uuid);
  };
  deleteChildren(store.statussen);
  deleteChildren(store.rollen);
  deleteChildren(store.zaakinformatieobjecten);
  for (const [uuid, relation] of store.objectinformatieobjecten)
    if (relation.fields['object'] === record.url) store.objectinformatieobjecten.delete(uuid);
  store.zaken.delete(record.uuid);
  ctx.notifier.zaken('zaak', 'destroy', record.url, record);
  return { status: 204 };
};

export function findZaken(
  ctx: SimContext,
  filter: { identificatie?: string; bronorganisatie?: string; zaaktype?: string },
): ZaakRecord[] {
  const { zaken } = ctx.store;
  const candidates =
    filter.identificatie !== undefined && filter.bronorganisatie !== undefined
      ? zaken.by(identificatieKey(filter.identificatie, filter.bronorganisatie))
      : [...zaken.values()];
  return candidates.filter(
    (zaak) =>
      (filter.identificatie === undefined || zaak.fields['identificatie'] === filter.identificatie) &&
      (filter.bronorganisatie === undefined || zaak.fields['bronorganisatie'] === filter.bronorganisatie) &&
      (filter.zaaktype === undefined || zaak.fields['zaaktype'] === filter.zaaktype),
  );
}

function zaakOrNotFound(request: OperationRequest, ctx: SimContext): ZaakRecord {
  const record = ctx.store.zaken.get(request.params['uuid'] ?? '');
  if (!record) throw ZgwError.notFound();
  return record;
}

function checkRsin(errors: FieldErrors, field: string, value: unknown): void {
  if (typeof value !== 'string' || value.length !== 9) return;
  if (!/^\d+$/.test(value)) errors.add(field, 'only-digits', 'Voer een numerieke waarde in');
  else if (!passesElevenTest(value)) errors.add(field, 'invalid', 'Onjuist RSIN nummer');
}

/** The orderable fields are dates and identifiers: strings, compared as written; anything else sorts first. */
function sortKey(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// `ordering=startdatum,-identificatie`: the fields the document allows, in the given order; creation order otherwise.
function order(zaken: Representation[], request: OperationRequest): Representation[] {
  const keys = (request.query.get('ordering') ?? '').split(',').filter(Boolean);
  if (keys.length === 0) return zaken;
  return [...zaken].sort((a, b) => {
    for (const key of keys) {
      const field = key.replace(/^-/, '');
      const [x, y] = [sortKey(a[field]), sortKey(b[field])];
      if (x !== y) return (x < y ? -1 : 1) * (key.startsWith('-') ? -1 : 1);
    }
    return 0;
  });
}
