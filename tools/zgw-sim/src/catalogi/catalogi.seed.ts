// The one published catalogue the simulator serves. The UUIDs are fixed so that a configuration
// (ZGW_ZAAKTYPE_URL) written before the simulator starts still points at the zaaktype.

export const SEED_UUIDS = {
  catalogus: '4c1fa2d0-2b1f-4e0a-9a3e-6f2b1c0d7a11',
  zaaktype: '8f4e6f5a-3c2d-4b7e-9d1a-2e5f6a7b8c01',
  statustypeIngediend: '0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01',
  statustypeBesluitGenomen: '0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c02',
  statustypeAfgehandeld: '0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c03',
  roltypeInitiator: '5d7e8f9a-0b1c-4d2e-8f3a-4b5c6d7e8f01',
  informatieobjecttype: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c01',
  // Of another zaaktype: lets tests and demos show Open Zaak refusing a type that is not the zaak's.
  otherZaaktype: '8f4e6f5a-3c2d-4b7e-9d1a-2e5f6a7b8c99',
  otherStatustype: '0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c99',
  otherRoltype: '5d7e8f9a-0b1c-4d2e-8f3a-4b5c6d7e8f99',
  otherInformatieobjecttype: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c99',
} as const;

// Open-ended types make Open Zaak answer `eindeObject: null`, which the Catalogi document does not
// allow; an end far away keeps every answer within the document.
const BEGIN = '2024-01-01';
const END = '2099-12-31';

export type Resource = Record<string, unknown> & { url: string };

export interface CatalogiSeed {
  catalogus: Resource;
  zaaktypen: Resource[];
  statustypen: Resource[];
  roltypen: Resource[];
  informatieobjecttypen: Resource[];
}

export function seedCatalogi(catalogiUrl: string, rsin: string): CatalogiSeed {
  const url = (collection: string, uuid: string) => `${catalogiUrl}/${collection}/${uuid}`;
  const catalogus = url('catalogussen', SEED_UUIDS.catalogus);
  const zaaktype = url('zaaktypen', SEED_UUIDS.zaaktype);
  const otherZaaktype = url('zaaktypen', SEED_UUIDS.otherZaaktype);
  const iotype = url('informatieobjecttypen', SEED_UUIDS.informatieobjecttype);
  const otherIotype = url('informatieobjecttypen', SEED_UUIDS.otherInformatieobjecttype);
  const types = { zaaktype, otherZaaktype, catalogus };
  const statustypen = seedStatustypen(url, types);
  const roltypen = seedRoltypen(url, types);
  const ownOf = (items: Resource[], type: string) =>
    items.filter((item) => item['zaaktype'] === type).map((item) => item.url);
  const zaaktypen = [
    zaakType(
      zaaktype,
      'AANVRAAG-REGISTRATIE',
      'Aanvraag registratie',
      catalogus,
      ownOf(statustypen, zaaktype),
      ownOf(roltypen, zaaktype),
      [iotype],
    ),
    zaakType(
      otherZaaktype,
      'ANDERE-ZAAK',
      'Andere zaak',
      catalogus,
      ownOf(statustypen, otherZaaktype),
      ownOf(roltypen, otherZaaktype),
      [otherIotype],
    ),
  ];
  return {
    catalogus: {
      url: catalogus,
      domein: 'REG',
      rsin,
      contactpersoonBeheerNaam: 'Registerbeheer',
      contactpersoonBeheerTelefoonnummer: '',
      contactpersoonBeheerEmailadres: '',
      zaaktypen: zaaktypen.map((item) => item.url),
      besluittypen: [],
      informatieobjecttypen: [iotype, otherIotype],
      naam: 'Register zorgprofessionals',
      versie: '1',
      begindatumVersie: BEGIN,
    },
    zaaktypen,
    statustypen,
    roltypen,
    informatieobjecttypen: [
      informatieobjectType(iotype, 'Bijlage bij aanvraag', catalogus, zaaktype),
      informatieobjectType(otherIotype, 'Melding', catalogus, otherZaaktype),
    ],
  };
}

type SeedUrl = (collection: string, uuid: string) => string;

interface SeedTypes {
  zaaktype: string;
  otherZaaktype: string;
  catalogus: string;
}

/** The registration's three statustypen (the last one closes the zaak), and the other zaaktype's one. */
function seedStatustypen(url: SeedUrl, { zaaktype, otherZaaktype, catalogus }: SeedTypes): Resource[] {
  return [
    statusType(
      url('statustypen', SEED_UUIDS.statustypeIngediend),
      'Ingediend',
      1,
      false,
      zaaktype,
      'AANVRAAG-REGISTRATIE',
      catalogus,
    ),
    statusType(
      url('statustypen', SEED_UUIDS.statustypeBesluitGenomen),
      'Besluit genomen',
      2,
      false,
      zaaktype,
      'AANVRAAG-REGISTRATIE',
      catalogus,
    ),
    statusType(
      url('statustypen', SEED_UUIDS.statustypeAfgehandeld),
      'Afgehandeld',
      3,
      true,
      zaaktype,
      'AANVRAAG-REGISTRATIE',
      catalogus,
    ),
    statusType(
      url('statustypen', SEED_UUIDS.otherStatustype),
      'Ontvangen',
      1,
      true,
      otherZaaktype,
      'ANDERE-ZAAK',
      catalogus,
    ),
  ];
}

/** One initiator roltype per zaaktype. */
function seedRoltypen(url: SeedUrl, { zaaktype, otherZaaktype, catalogus }: SeedTypes): Resource[] {
  return [
    rolType(
      url('roltypen', SEED_UUIDS.roltypeInitiator),
      'Aanvrager',
      'initiator',
      zaaktype,
      'AANVRAAG-REGISTRATIE',
      catalogus,
    ),
    rolType(url('roltypen', SEED_UUIDS.otherRoltype), 'Melder', 'initiator', otherZaaktype, 'ANDERE-ZAAK', catalogus),
  ];
}

function informatieobjectType(url: string, omschrijving: string, catalogus: string, zaaktype: string): Resource {
  return {
    url,
    catalogus,
    omschrijving,
    vertrouwelijkheidaanduiding: 'vertrouwelijk',
    beginGeldigheid: BEGIN,
    eindeGeldigheid: END,
    concept: false,
    besluittypen: [],
    informatieobjectcategorie: 'Bijlage',
    trefwoord: [],
    zaaktypen: [zaaktype],
    beginObject: BEGIN,
    eindeObject: END,
  };
}

function zaakType(
  url: string,
  identificatie: string,
  omschrijving: string,
  catalogus: string,
  statustypen: string[],
  roltypen: string[],
  iotypen: string[],
): Resource {
  return {
    url,
    identificatie,
    omschrijving,
    omschrijvingGeneriek: '',
    vertrouwelijkheidaanduiding: 'vertrouwelijk',
    doel: 'Beslissen op een aanvraag tot registratie in het register van zorgprofessionals.',
    aanleiding: 'Een zorgprofessional vraagt registratie aan.',
    toelichting: '',
    indicatieInternOfExtern: 'extern',
    handelingInitiator: 'Aanvragen',
    onderwerp: 'Registratie',
    handelingBehandelaar: 'Beoordelen',
    doorlooptijd: 'P56D',
    servicenorm: null,
    opschortingEnAanhoudingMogelijk: false,
    verlengingMogelijk: false,
    verlengingstermijn: null,
    trefwoorden: [],
    publicatieIndicatie: false,
    publicatietekst: '',
    verantwoordingsrelatie: [],
    productenOfDiensten: [],
    selectielijstProcestype: '',
    referentieproces: { naam: 'Registratie', link: '' },
    concept: false,
    verantwoordelijke: 'Registerbeheer',
    beginGeldigheid: BEGIN,
    eindeGeldigheid: END,
    versiedatum: BEGIN,
    beginObject: BEGIN,
    eindeObject: END,
    catalogus,
    statustypen,
    resultaattypen: [],
    eigenschappen: [],
    informatieobjecttypen: iotypen,
    roltypen,
    besluittypen: [],
    deelzaaktypen: [],
    gerelateerdeZaaktypen: [],
    zaakobjecttypen: [],
  };
}

function statusType(
  url: string,
  omschrijving: string,
  volgnummer: number,
  isEindstatus: boolean,
  zaaktype: string,
  zaaktypeIdentificatie: string,
  catalogus: string,
): Resource {
  return {
    url,
    omschrijving,
    omschrijvingGeneriek: '',
    statustekst: '',
    zaaktype,
    zaaktypeIdentificatie,
    volgnummer,
    isEindstatus,
    informeren: false,
    doorlooptijd: null,
    toelichting: null,
    checklistitemStatustype: [],
    catalogus,
    eigenschappen: [],
    zaakobjecttypen: [],
    beginGeldigheid: BEGIN,
    eindeGeldigheid: END,
    beginObject: BEGIN,
    eindeObject: END,
  };
}

function rolType(
  url: string,
  omschrijving: string,
  omschrijvingGeneriek: string,
  zaaktype: string,
  zaaktypeIdentificatie: string,
  catalogus: string,
): Resource {
  return {
    url,
    zaaktype,
    zaaktypeIdentificatie,
    omschrijving,
    omschrijvingGeneriek,
    catalogus,
    beginGeldigheid: BEGIN,
    eindeGeldigheid: END,
    beginObject: BEGIN,
    eindeObject: END,
  };
}
