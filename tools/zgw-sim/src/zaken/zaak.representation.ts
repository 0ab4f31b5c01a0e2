import { hoofdzaakKey, type Representation, type SimStore, type ZaakRecord } from '../state/store';

// The Zaak answer in the order of the Zaken document, with the values Open Zaak gives what was not sent.
const ZAAK_DEFAULTS: Representation = {
  identificatie: '',
  bronorganisatie: '',
  omschrijving: '',
  toelichting: '',
  zaaktype: '',
  registratiedatum: '',
  verantwoordelijkeOrganisatie: '',
  startdatum: '',
  einddatum: null,
  einddatumGepland: null,
  uiterlijkeEinddatumAfdoening: null,
  publicatiedatum: null,
  laatstGemuteerd: '',
  laatstGeopend: null,
  communicatiekanaal: '',
  communicatiekanaalNaam: '',
  productenOfDiensten: [],
  vertrouwelijkheidaanduiding: '',
  betalingsindicatie: '',
  betalingsindicatieWeergave: '',
  laatsteBetaaldatum: null,
  zaakgeometrie: null,
  verlenging: null,
  opschorting: { indicatie: false, eerdereOpschorting: false, reden: '' },
  selectielijstklasse: '',
  hoofdzaak: null,
  deelzaken: [],
  relevanteAndereZaken: [],
  gerelateerdeZaken: [],
  eigenschappen: [],
  rollen: [],
  status: null,
  zaakinformatieobjecten: [],
  zaakobjecten: [],
  kenmerken: [],
  archiefnominatie: null,
  archiefstatus: 'nog_te_archiveren',
  archiefactiedatum: null,
  resultaat: null,
  // Left out when not given: Open Zaak answers '', which the document's minLength 9 does not allow.
  opdrachtgevendeOrganisatie: undefined,
  processobjectaard: '',
  startdatumBewaartermijn: null,
  processobject: { datumkenmerk: '', identificatie: '', objecttype: '', registratie: '' },
};

// Derived on every read; a client cannot write them.
const READ_ONLY = [
  'url',
  'uuid',
  'einddatum',
  'laatstGemuteerd',
  'betalingsindicatieWeergave',
  'deelzaken',
  'eigenschappen',
  'rollen',
  'status',
  'zaakinformatieobjecten',
  'zaakobjecten',
  'resultaat',
];

const BETALINGSINDICATIE_WEERGAVE: Record<string, string> = {
  nvt: 'Er is geen sprake van te betalen, met de zaak gemoeide, kosten.',
  nog_niet: 'De met de zaak gemoeide kosten zijn (nog) niet betaald.',
  gedeeltelijk: 'De met de zaak gemoeide kosten zijn gedeeltelijk betaald.',
  geheel: 'De met de zaak gemoeide kosten zijn geheel betaald.',
};

/** The stored fields of a new zaak: what the client sent over Open Zaak's defaults. */
export function zaakFields(body: Representation, derived: Representation): Representation {
  const fields: Representation = { ...ZAAK_DEFAULTS };
  for (const [key, value] of Object.entries(body)) {
    if (key in ZAAK_DEFAULTS && !READ_ONLY.includes(key)) fields[key] = value;
  }
  // Open Zaak answers the group, or null, whatever form the client used.
  if (body['opschorting'] === null || body['opschorting'] === undefined)
    fields['opschorting'] = ZAAK_DEFAULTS['opschorting'];
  else fields['opschorting'] = { eerdereOpschorting: false, ...(body['opschorting'] as Representation) };
  if (body['processobject'] === null || body['processobject'] === undefined)
    fields['processobject'] = ZAAK_DEFAULTS['processobject'];
  const betalingsindicatie = fields['betalingsindicatie'];
  fields['betalingsindicatieWeergave'] =
    (typeof betalingsindicatie === 'string' && BETALINGSINDICATIE_WEERGAVE[betalingsindicatie]) || '';
  return { ...fields, ...derived };
}

export function renderZaak(record: ZaakRecord, store: SimStore): Representation {
  const statussen = store.childrenOf(store.statussen, record.uuid);
  const current = statussen.reduce<(typeof statussen)[number] | undefined>(
    (latest, status) =>
      latest === undefined || status.datumStatusGezet.micros > latest.datumStatusGezet.micros ? status : latest,
    undefined,
  );
  const rendered: Representation = { url: record.url, uuid: record.uuid };
  for (const key of Object.keys(ZAAK_DEFAULTS))
    if (record.fields[key] !== undefined) rendered[key] = record.fields[key];
  rendered['deelzaken'] = store.zaken.by(hoofdzaakKey(record.url)).map((zaak) => zaak.url);
  rendered['rollen'] = store.childrenOf(store.rollen, record.uuid).map((rol) => rol.url);
  rendered['status'] = current?.url ?? null;
  rendered['zaakinformatieobjecten'] = store
    .childrenOf(store.zaakinformatieobjecten, record.uuid)
    .map((zio) => zio.url);
  return rendered;
}
