import { randomUUID } from 'node:crypto';
import { childrenOfZaakUrl, created, ok, type OperationHandler, type SimContext } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { formatInstant, nowInstant } from '../state/instants';
import { passesElevenTest } from '../state/rsin';
import type { ChildRecord, Representation, ZaakRecord } from '../state/store';

// What Open Zaak answers for the identification fields a client left out (not `inpBsn` and `inpA_nummer`:
// their blank '' would break the document's minLength and pattern, so they are left out unless given).
const NATUURLIJK_PERSOON_DEFAULTS: Representation = {
  anpIdentificatie: '',
  geslachtsnaam: '',
  voorvoegselGeslachtsnaam: '',
  voorletters: '',
  voornamen: '',
  geslachtsaanduiding: '',
  geboortedatum: '',
  verblijfsadres: null,
  subVerblijfBuitenland: null,
};

// Open Zaak's RolOccurenceValidator: a zaak has at most one initiator.
const MAX_OCCURRENCES: Record<string, number> = { initiator: 1, zaakcoordinator: 1 };

export const createRol: OperationHandler = (request, ctx) => {
  const body = request.body as Representation;
  const { zaak, roltype } = resolveRolReferences(body, ctx);
  const generiek = String(roltype['omschrijvingGeneriek']);
  validateRol(body, ctx, zaak, roltype, generiek);
  const uuid = randomUUID();
  const record: ChildRecord = {
    uuid,
    url: `${ctx.urls.zaken}/rollen/${uuid}`,
    zaakUuid: zaak.uuid,
    fields: rolFields(body, { uuid, zaak, roltype, generiek }, ctx),
  };
  ctx.store.rollen.set(uuid, record);
  ctx.notifier.zaken('rol', 'create', record.url, zaak);
  return created(record.fields as Representation & { url: string });
};

function resolveRolReferences(body: Representation, ctx: SimContext) {
  const errors = new FieldErrors();
  const zaak = resolveReference(
    errors,
    'zaak',
    body['zaak'],
    `${ctx.urls.zaken}/zaken`,
    (uuid) => ctx.store.zaken.get(uuid),
    'local',
  );
  const roltype = resolveReference(
    errors,
    'roltype',
    body['roltype'],
    `${ctx.urls.catalogi}/roltypen`,
    (_uuid, url) => ctx.catalogi.roltype(url),
    'loose',
  );
  errors.throwIfAny();
  if (!zaak || !roltype) throw new Error('A reference resolved without an error and without a value');
  return { zaak, roltype };
}

/** Open Zaak's BSNField: digits only, and the eleven-test, as for an RSIN. */
function validateBsn(body: Representation): void {
  const errors = new FieldErrors();
  const inpBsn = (body['betrokkeneIdentificatie'] as Representation | undefined)?.['inpBsn'];
  if (body['betrokkeneType'] !== 'natuurlijk_persoon' || typeof inpBsn !== 'string' || inpBsn === '') return;
  if (!/^\d+$/.test(inpBsn))
    errors.add('betrokkeneIdentificatie.inpBsn', 'only-digits', 'Voer een numerieke waarde in');
  else if (!passesElevenTest(inpBsn)) errors.add('betrokkeneIdentificatie.inpBsn', 'invalid', 'Onjuist BSN nummer');
  errors.throwIfAny();
}

/** A betrokkene, a roltype of the zaak's zaaktype, and no more initiators (or coordinators) than one. */
function validateRol(
  body: Representation,
  ctx: SimContext,
  zaak: ZaakRecord,
  roltype: Representation,
  generiek: string,
): void {
  validateBsn(body);
  const errors = new FieldErrors();
  if (!body['betrokkene'] && !body['betrokkeneIdentificatie']) {
    errors.add('nonFieldErrors', 'invalid-betrokkene', 'betrokkene or betrokkeneIdentificatie must be provided');
  }
  // zrc-019: the roltype belongs to the zaak's zaaktype.
  if (roltype['zaaktype'] !== zaak.fields['zaaktype']) {
    errors.add('nonFieldErrors', 'zaaktype-mismatch', 'De referentie hoort niet bij het zaaktype van de zaak.');
  }
  const existing = ctx.store
    .childrenOf(ctx.store.rollen, zaak.uuid)
    .filter((rol) => rol.fields['omschrijvingGeneriek'] === generiek).length;
  if (existing >= (MAX_OCCURRENCES[generiek] ?? Infinity)) {
    errors.add('roltype', 'max-occurences', `There are already ${existing} \`${generiek}\` occurences`);
  }
  errors.throwIfAny();
}

/** The rol's representation: what the client sent, Open Zaak's defaults for what it left out. */
function rolFields(
  body: Representation,
  known: { uuid: string; zaak: ZaakRecord; roltype: Representation; generiek: string },
  ctx: SimContext,
): Representation {
  const or = (key: string, fallback: unknown): unknown => body[key] ?? fallback;
  const { uuid, zaak, roltype } = known;
  const identificatie = body['betrokkeneIdentificatie'] as Representation | undefined;
  const persoon = body['betrokkeneType'] === 'natuurlijk_persoon';
  return {
    url: `${ctx.urls.zaken}/rollen/${uuid}`,
    uuid,
    zaak: zaak.url,
    betrokkene: or('betrokkene', ''),
    betrokkeneType: body['betrokkeneType'],
    afwijkendeNaamBetrokkene: or('afwijkendeNaamBetrokkene', ''),
    roltype: roltype.url,
    omschrijving: roltype['omschrijving'],
    omschrijvingGeneriek: known.generiek,
    roltoelichting: or('roltoelichting', ''),
    registratiedatum: formatInstant(nowInstant(ctx.now())),
    indicatieMachtiging: or('indicatieMachtiging', ''),
    contactpersoonRol: or('contactpersoonRol', null),
    statussen: [],
    beginGeldigheid: or('beginGeldigheid', null),
    eindeGeldigheid: or('eindeGeldigheid', null),
    ...(identificatie === undefined
      ? {}
      : { betrokkeneIdentificatie: persoon ? { ...NATUURLIJK_PERSOON_DEFAULTS, ...identificatie } : identificatie }),
    authenticatieContext: or('authenticatieContext', null),
  };
}

export const listRollen: OperationHandler = (request, ctx) => {
  assertSupportedQuery(request, ['zaak', 'roltype', 'omschrijvingGeneriek', 'betrokkeneType']);
  const filters = ['zaak', 'roltype', 'omschrijvingGeneriek', 'betrokkeneType'].map(
    (name) => [name, request.query.get(name)] as const,
  );
  const rollen = childrenOfZaakUrl(ctx, ctx.store.rollen, request.query.get('zaak')).filter((rol) =>
    filters.every(([name, value]) => value === null || rol.fields[name] === value),
  );
  return ok(
    paginate(
      rollen.map((rol) => rol.fields),
      request,
      ctx,
    ),
  );
};

export const readRol: OperationHandler = (request, ctx) => {
  const rol = ctx.store.rollen.get(request.params['uuid'] ?? '');
  if (!rol) throw ZgwError.notFound();
  return ok(rol.fields);
};
