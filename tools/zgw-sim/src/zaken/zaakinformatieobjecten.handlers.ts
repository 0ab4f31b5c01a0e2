import { randomUUID } from 'node:crypto';
import { childrenOfZaakUrl, created, ok, type OperationHandler, type SimContext } from '../http/operation';
import { assertSupportedQuery } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { formatInstant, nowInstant } from '../state/instants';
import type { ChildRecord, DocumentRecord, Representation, ZaakRecord } from '../state/store';

export const createZaakInformatieObject: OperationHandler = (request, ctx) => {
  const body = request.body as Representation;
  const { store, urls } = ctx;
  const { zaak, document } = resolveZioReferences(body, ctx);
  checkZioRules(zaak, document, ctx);
  const uuid = randomUUID();
  const url = `${urls.zaken}/zaakinformatieobjecten/${uuid}`;
  const record: ChildRecord = {
    uuid,
    url,
    zaakUuid: zaak.uuid,
    fields: {
      url,
      uuid,
      informatieobject: document.url,
      zaak: zaak.url,
      // zrc-004: the relation and its registration date are set by the system.
      aardRelatieWeergave: 'Hoort bij, omgekeerd: kent',
      titel: body['titel'] ?? '',
      beschrijving: body['beschrijving'] ?? '',
      registratiedatum: formatInstant(nowInstant(ctx.now())),
      vernietigingsdatum: body['vernietigingsdatum'] ?? null,
      status: body['status'] ?? null,
    },
  };
  store.zaakinformatieobjecten.set(uuid, record);
  // zrc-005: the relation is mirrored in the Documenten API.
  const oioUuid = randomUUID();
  const oioUrl = `${urls.documenten}/objectinformatieobjecten/${oioUuid}`;
  store.objectinformatieobjecten.set(oioUuid, {
    uuid: oioUuid,
    url: oioUrl,
    fields: { url: oioUrl, informatieobject: document.url, object: zaak.url, objectType: 'zaak' },
  });
  ctx.notifier.zaken('zaakinformatieobject', 'create', url, zaak);
  return created(record.fields as Representation & { url: string });
};

/** The zaak, the document (zrc-003: it must exist in the Documenten API) and a status of the same zaak. */
function resolveZioReferences(body: Representation, ctx: SimContext) {
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
  // zrc-003: the informatieobject must exist in the Documenten API.
  const document = resolveReference(
    errors,
    'informatieobject',
    body['informatieobject'],
    `${urls.documenten}/enkelvoudiginformatieobjecten`,
    (uuid) => store.documenten.get(uuid),
    'loose',
  );
  if (typeof body['status'] === 'string') {
    const status = resolveReference(
      errors,
      'status',
      body['status'],
      `${urls.zaken}/statussen`,
      (uuid) => store.statussen.get(uuid),
      'local',
    );
    if (status && zaak && status.zaakUuid !== zaak.uuid)
      errors.add('status', 'invalid', 'De status hoort niet bij de zaak.');
  }
  errors.throwIfAny();
  if (!zaak || !document) throw new Error('A reference resolved without an error and without a value');
  return { zaak, document };
}

/** One relation per document and zaak, and (zrc-017) a document type the zaak's zaaktype allows. */
function checkZioRules(zaak: ZaakRecord, document: DocumentRecord, ctx: SimContext): void {
  const { store } = ctx;
  const errors = new FieldErrors();
  if (
    store
      .childrenOf(store.zaakinformatieobjecten, zaak.uuid)
      .some((zio) => zio.fields['informatieobject'] === document.url)
  ) {
    errors.add('nonFieldErrors', 'unique', 'De velden zaak, informatieobject moeten een unieke set zijn.');
  }
  // zrc-017: the document's informatieobjecttype belongs to the zaak's zaaktype.
  const zaaktype = ctx.catalogi.zaaktype(String(zaak.fields['zaaktype']));
  if (
    !(zaaktype?.['informatieobjecttypen'] as string[] | undefined)?.includes(
      String(document.fields['informatieobjecttype']),
    )
  ) {
    errors.add(
      'nonFieldErrors',
      'missing-zaaktype-informatieobjecttype-relation',
      'Het informatieobjecttype hoort niet bij het zaaktype van de zaak.',
    );
  }
  errors.throwIfAny();
}

// Not paginated in the Zaken API: a plain array.
export const listZaakInformatieObjecten: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['zaak', 'informatieobject']);
  const zaak = request.query.get('zaak');
  const informatieobject = request.query.get('informatieobject');
  const records: ChildRecord[] = childrenOfZaakUrl(ctx, ctx.store.zaakinformatieobjecten, zaak).filter(
    (zio) =>
      (zaak === null || zio.fields['zaak'] === zaak) &&
      (informatieobject === null || zio.fields['informatieobject'] === informatieobject),
  );
  return ok(records.map((zio) => zio.fields));
};

export const readZaakInformatieObject: OperationHandler = (request, ctx) => {
  const zio = ctx.store.zaakinformatieobjecten.get(request.params['uuid'] ?? '');
  if (!zio) throw ZgwError.notFound();
  return ok(zio.fields);
};
