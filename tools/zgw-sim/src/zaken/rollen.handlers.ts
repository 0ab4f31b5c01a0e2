import { randomUUID } from 'node:crypto';
import { childrenOfZaakUrl, created, ok, type OperationHandler } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { FieldErrors, resolveReference } from '../http/references';
import { ZgwError } from '../http/zgw-errors';
import { formatInstant, nowInstant } from '../state/instants';
import { passesElevenTest } from '../state/rsin';
import type { ChildRecord, Representation } from '../state/store';

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
  const roltype = resolveReference(
    errors,
    'roltype',
    body['roltype'],
    `${urls.catalogi}/roltypen`,
    (_uuid, url) => ctx.catalogi.roltype(url),
    'loose',
  );
  errors.throwIfAny();
  if (!zaak || !roltype) throw new Error('A reference resolved without an error and without a value');
  // Open Zaak's BSNField: the eleven-test, as for an RSIN.
  const inpBsn = (body['betrokkeneIdentificatie'] as Representation | undefined)?.['inpBsn'];
  if (body['betrokkeneType'] === 'natuurlijk_persoon' && typeof inpBsn === 'string' && inpBsn !== '') {
    if (!/^\d+$/.test(inpBsn))
      errors.add('betrokkeneIdentificatie.inpBsn', 'only-digits', 'Voer een numerieke waarde in');
    else if (!passesElevenTest(inpBsn)) errors.add('betrokkeneIdentificatie.inpBsn', 'invalid', 'Onjuist BSN nummer');
    errors.throwIfAny();
  }
  if (!body['betrokkene'] && !body['betrokkeneIdentificatie']) {
    errors.add('nonFieldErrors', 'invalid-betrokkene', 'betrokkene or betrokkeneIdentificatie must be provided');
  }
  // zrc-019: the roltype belongs to the zaak's zaaktype.
  if (roltype['zaaktype'] !== zaak.fields['zaaktype']) {
    errors.add('nonFieldErrors', 'zaaktype-mismatch', 'De referentie hoort niet bij het zaaktype van de zaak.');
  }
  const generiek = String(roltype['omschrijvingGeneriek']);
  const existing = store
    .childrenOf(store.rollen, zaak.uuid)
    .filter((rol) => rol.fields['omschrijvingGeneriek'] === generiek).length;
  if (existing >= (MAX_OCCURRENCES[generiek] ?? Infinity)) {
    errors.add('roltype', 'max-occurences', `There are already ${existing} \`${generiek}\` occurences`);
  }
  errors.throwIfAny();
  const uuid = randomUUID();
  const identificatie = body['betrokkeneIdentificatie'] as Representation | undefined;
  const record: ChildRecord = {
    uuid,
    url: `${urls.zaken}/rollen/${uuid}`,
    zaakUuid: zaak.uuid,
    fields: {
      url: `${urls.zaken}/rollen/${uuid}`,
      uuid,
      zaak: zaak.url,
      betrokkene: body['betrokkene'] ?? '',
      betrokkeneType: body['betrokkeneType'],
      afwijkendeNaamBetrokkene: body['afwijkendeNaamBetrokkene'] ?? '',
      roltype: roltype.url,
      omschrijving: roltype['omschrijving'],
      omschrijvingGeneriek: generiek,
      roltoelichting: body['roltoelichting'] ?? '',
      registratiedatum: formatInstant(nowInstant(ctx.now())),
      indicatieMachtiging: body['indicatieMachtiging'] ?? '',
      contactpersoonRol: body['contactpersoonRol'] ?? null,
      statussen: [],
      beginGeldigheid: body['beginGeldigheid'] ?? null,
      eindeGeldigheid: body['eindeGeldigheid'] ?? null,
      ...(identificatie === undefined
        ? {}
        : {
            betrokkeneIdentificatie:
              body['betrokkeneType'] === 'natuurlijk_persoon'
                ? { ...NATUURLIJK_PERSOON_DEFAULTS, ...identificatie }
                : identificatie,
          }),
      authenticatieContext: body['authenticatieContext'] ?? null,
    },
  };
  store.rollen.set(uuid, record);
  ctx.notifier.zaken('rol', 'create', record.url, zaak);
  return created(record.fields as Representation & { url: string });
};

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
