import { randomUUID } from 'node:crypto';
import { created, ok, type OperationHandler, type OperationRequest, type SimContext } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { formatInstant, nowInstant } from '../state/instants';
import { passesElevenTest } from '../state/rsin';
import { identificatieKey, type DocumentRecord, type Representation } from '../state/store';

export const createDocument: OperationHandler = (request, ctx) => {
  const body = request.body as Representation;
  const { iotype, bronorganisatie, identificatie, content } = validateDocument(body, ctx);
  const uuid = randomUUID();
  const url = `${ctx.urls.documenten}/enkelvoudiginformatieobjecten/${uuid}`;
  const record: DocumentRecord = {
    uuid,
    url,
    content,
    fields: documentFields(body, { url, identificatie, bronorganisatie, iotype, content }, ctx),
  };
  ctx.store.documenten.set(uuid, record);
  return created(record.fields as Representation & { url: string });
};

/** Open Zaak's checks of a new document: its type, its RSIN, a unique identificatie, the size of its inhoud. */
function validateDocument(body: Representation, ctx: SimContext) {
  const errors = new FieldErrors();
  const iotype = resolveReference(
    errors,
    'informatieobjecttype',
    body['informatieobjecttype'],
    `${ctx.urls.catalogi}/informatieobjecttypen`,
    (_uuid, url) => ctx.catalogi.informatieobjecttype(url),
    'loose',
  );
  const bronorganisatie = String(body['bronorganisatie']);
  if (/^\d{9}$/.test(bronorganisatie) && !passesElevenTest(bronorganisatie))
    errors.add('bronorganisatie', 'invalid', 'Onjuist RSIN nummer');
  errors.throwIfAny();
  const identificatie =
    typeof body['identificatie'] === 'string' && body['identificatie'] !== ''
      ? body['identificatie']
      : ctx.store.nextIdentificatie('DOCUMENT', String(ctx.now().getFullYear()));
  // Unique per bronorganisatie, as for zaken (drc-002).
  if (ctx.store.documenten.by(identificatieKey(identificatie, bronorganisatie)).length > 0) {
    errors.add(
      'identificatie',
      'identificatie-niet-uniek',
      `Deze identificatie (${identificatie}) bestaat al voor deze bronorganisatie`,
    );
  }
  const content = typeof body['inhoud'] === 'string' ? Buffer.from(body['inhoud'], 'base64') : Buffer.alloc(0);
  // Open Zaak: a size given beside the inhoud must be the decoded inhoud's (a non-field error).
  if (typeof body['inhoud'] === 'string' && 'bestandsomvang' in body && body['bestandsomvang'] !== content.length) {
    errors.add('nonFieldErrors', 'file-size', "The size of upload file should match the 'bestandsomvang' field");
  }
  errors.throwIfAny();
  return { iotype, bronorganisatie, identificatie, content };
}

/** The document's representation: what the client sent, Open Zaak's defaults for what it left out. */
function documentFields(
  body: Representation,
  known: {
    url: string;
    identificatie: string;
    bronorganisatie: string;
    iotype: Representation | undefined;
    content: Buffer;
  },
  ctx: SimContext,
): Representation {
  const or = (key: string, fallback: unknown): unknown => body[key] ?? fallback;
  const { url, iotype, content } = known;
  const hasInhoud = typeof body['inhoud'] === 'string';
  return {
    url,
    identificatie: known.identificatie,
    bronorganisatie: known.bronorganisatie,
    creatiedatum: body['creatiedatum'],
    titel: body['titel'],
    vertrouwelijkheidaanduiding: body['vertrouwelijkheidaanduiding'] || iotype?.['vertrouwelijkheidaanduiding'],
    auteur: body['auteur'],
    status: or('status', ''),
    formaat: or('formaat', ''),
    taal: body['taal'],
    versie: 1,
    beginRegistratie: formatInstant(nowInstant(ctx.now())),
    bestandsnaam: or('bestandsnaam', ''),
    inhoud: hasInhoud ? `${url}/download?versie=1` : null,
    bestandsomvang: or('bestandsomvang', hasInhoud ? content.length : null),
    link: or('link', ''),
    beschrijving: or('beschrijving', ''),
    ontvangstdatum: or('ontvangstdatum', null),
    verzenddatum: or('verzenddatum', null),
    indicatieGebruiksrecht: or('indicatieGebruiksrecht', null),
    verschijningsvorm: or('verschijningsvorm', ''),
    ondertekening: or('ondertekening', null),
    integriteit: or('integriteit', null),
    informatieobjecttype: iotype?.url,
    locked: false,
    bestandsdelen: [],
    trefwoorden: or('trefwoorden', []),
  };
}

export const listDocuments: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['identificatie', 'bronorganisatie', 'informatieobjecttype']);
  const filters = ['identificatie', 'bronorganisatie', 'informatieobjecttype'].map(
    (name) => [name, request.query.get(name)] as const,
  );
  const [identificatie, bronorganisatie] = [request.query.get('identificatie'), request.query.get('bronorganisatie')];
  const candidates =
    identificatie !== null && bronorganisatie !== null
      ? ctx.store.documenten.by(identificatieKey(identificatie, bronorganisatie))
      : [...ctx.store.documenten.values()];
  const documents = candidates.filter((doc) =>
    filters.every(([name, value]) => value === null || doc.fields[name] === value),
  );
  return ok(
    paginate(
      documents.map((doc) => doc.fields),
      request,
      ctx,
    ),
  );
};

export const readDocument: OperationHandler = (request, ctx) => ok(documentOrNotFound(request, ctx).fields);

export const downloadDocument: OperationHandler = (request, ctx) => {
  const document = documentOrNotFound(request, ctx);
  return { status: 200, raw: { contentType: 'application/octet-stream', data: document.content } };
};

// zrc-005: the relations the Zaken API mirrored here (a plain array, not paginated).
export const listObjectInformatieObjecten: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['object', 'informatieobject']);
  const filters = ['object', 'informatieobject'].map((name) => [name, request.query.get(name)] as const);
  const relations = [...ctx.store.objectinformatieobjecten.values()].filter((oio) =>
    filters.every(([name, value]) => value === null || oio.fields[name] === value),
  );
  return ok(relations.map((oio) => oio.fields));
};

function documentOrNotFound(request: OperationRequest, ctx: SimContext): DocumentRecord {
  const document = ctx.store.documenten.get(request.params['uuid'] ?? '');
  if (!document) throw ZgwError.notFound();
  return document;
}
