import { randomUUID } from 'node:crypto';
import { childrenOfZaakUrl, created, ok, type OperationHandler, type SimContext } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { formatInstant, nowInstant, parseInstant } from '../state/instants';
import type { Representation, StatusRecord, ZaakRecord } from '../state/store';

export const createStatus: OperationHandler = (request, ctx) => {
  const body = request.body as Representation;
  const { zaak, statustype, datumStatusGezet } = checkStatusFields(body, ctx);
  checkStatusRules(zaak, statustype, datumStatusGezet, ctx);
  const uuid = randomUUID();
  const record: StatusRecord = {
    uuid,
    url: `${ctx.urls.zaken}/statussen/${uuid}`,
    zaakUuid: zaak.uuid,
    datumStatusGezet,
    fields: {
      zaak: zaak.url,
      statustype: statustype.url,
      datumStatusGezet: formatInstant(datumStatusGezet),
      statustoelichting: body['statustoelichting'] ?? '',
      gezetdoor: body['gezetdoor'] ?? null,
    },
  };
  ctx.store.statussen.set(uuid, record);
  zaak.fields['laatstGemuteerd'] = formatInstant(nowInstant(ctx.now()));
  ctx.notifier.zaken('status', 'create', record.url, zaak);
  return created(renderStatus(record, ctx) as Representation & { url: string });
};

/** The status's fields: its zaak, its statustype, a date not in the future, and a rol of the same zaak. */
function checkStatusFields(body: Representation, ctx: SimContext) {
  const { store, urls } = ctx;
  const errors = new FieldErrors();
  const zaak = resolveReference(
    errors,
    'zaak',
    body['zaak'],
    `${urls.zaken}/zaken`,
    (uuid) => store.zaken.get(uuid),
    'local',
  );
  const statustype = resolveReference(
    errors,
    'statustype',
    body['statustype'],
    `${urls.catalogi}/statustypen`,
    (_uuid, url) => ctx.catalogi.statustype(url),
    'loose',
  );
  const datumStatusGezet = parseInstant(String(body['datumStatusGezet']));
  // Open Zaak: a status cannot have been set in the future.
  if (datumStatusGezet.micros > nowInstant(ctx.now()).micros) {
    errors.add('datumStatusGezet', 'date-in-future', 'Deze datum mag niet in de toekomst zijn');
  }
  if (typeof body['gezetdoor'] === 'string') {
    const rol = resolveReference(
      errors,
      'gezetdoor',
      body['gezetdoor'],
      `${urls.zaken}/rollen`,
      (uuid) => store.rollen.get(uuid),
      'local',
    );
    if (rol && zaak && rol.zaakUuid !== zaak.uuid)
      errors.add('gezetdoor', 'invalid-rol-for-zaak', 'De rol hoort niet bij de zaak van de status.');
  }
  errors.throwIfAny();
  if (!zaak || !statustype) return unreachable();
  return { zaak, statustype, datumStatusGezet };
}

/** The object-level rules, then zrc-007's eindstatus. */
function checkStatusRules(
  zaak: ZaakRecord,
  statustype: Representation,
  datumStatusGezet: StatusRecord['datumStatusGezet'],
  { store }: SimContext,
): void {
  const errors = new FieldErrors();
  // Object-level rules: all of them are reported together, as Django REST framework runs them.
  const siblings = store.childrenOf(store.statussen, zaak.uuid);
  if (siblings.some((status) => status.datumStatusGezet.micros === datumStatusGezet.micros)) {
    errors.add('nonFieldErrors', 'unique', 'De velden zaak, datum_status_gezet moeten een unieke set zijn.');
  }
  // zrc-016: the statustype belongs to the zaak's zaaktype.
  if (statustype['zaaktype'] !== zaak.fields['zaaktype']) {
    errors.add('nonFieldErrors', 'zaaktype-mismatch', 'De referentie hoort niet bij het zaaktype van de zaak.');
  }
  errors.throwIfAny();
  // zrc-007: closing a zaak needs its resultaat, and the simulator keeps no resultaten.
  if (statustype['isEindstatus'] === true) {
    errors.add(
      'nonFieldErrors',
      'resultaat-does-not-exist',
      'De zaak heeft geen resultaat; een eindstatus kan niet gezet worden.',
    );
    errors.throwIfAny();
  }
}

export const listStatussen: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['zaak', 'statustype']);
  const zaak = request.query.get('zaak');
  const statustype = request.query.get('statustype');
  const statussen = childrenOfZaakUrl(ctx, ctx.store.statussen, zaak).filter(
    (status) =>
      (zaak === null || status.fields['zaak'] === zaak) &&
      (statustype === null || status.fields['statustype'] === statustype),
  );
  return ok(
    paginate(
      statussen.map((status) => renderStatus(status, ctx)),
      request,
      ctx,
    ),
  );
};

export const readStatus: OperationHandler = (request, ctx) => {
  const status = ctx.store.statussen.get(request.params['uuid'] ?? '');
  if (!status) throw ZgwError.notFound();
  return ok(renderStatus(status, ctx));
};

export function renderStatus(status: StatusRecord, ctx: SimContext): Representation {
  const siblings = ctx.store.childrenOf(ctx.store.statussen, status.zaakUuid);
  const latest = siblings.every((other) => other.datumStatusGezet.micros <= status.datumStatusGezet.micros);
  return {
    url: status.url,
    uuid: status.uuid,
    zaak: status.fields['zaak'],
    statustype: status.fields['statustype'],
    datumStatusGezet: status.fields['datumStatusGezet'],
    statustoelichting: status.fields['statustoelichting'],
    indicatieLaatstGezetteStatus: latest,
    gezetdoor: status.fields['gezetdoor'],
    zaakinformatieobjecten: ctx.store
      .childrenOf(ctx.store.zaakinformatieobjecten, status.zaakUuid)
      .filter((zio) => zio.fields['status'] === status.url)
      .map((zio) => zio.url),
  };
}

function unreachable(): never {
  throw new Error('A reference resolved without an error and without a value');
}
