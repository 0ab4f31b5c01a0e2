/**
 * The organisation's register of processing activities (GDPR art. 30; Logboek Dataverwerkingen's
 * `dpl.core.processing_activity_id` is one of these ids). This file is the register: an organisation edits it here
 * (docs/processing-log.md), and every route and job names one of its ids (ADR 0180).
 */
export interface Verwerkingsactiviteit {
  /** A URI, stable for as long as records that cite it are kept. */
  id: string;
  naam: string;
  doel: string;
  grondslag: string;
  /** The categories of personal data the activity processes. */
  categorieen: readonly string[];
  /** How long its log records are kept: an ISO 8601 duration in years, months or days (`P7Y`, `P6M`, `P30D`). */
  bewaartermijn: string;
}

const BASE = 'https://register.example.nl/verwerkingsactiviteiten';
const AWBIG = 'Wet BIG art. 3 en 8 (registratie en herregistratie); AVG art. 6 lid 1 sub e';

export const VERWERKINGSACTIVITEITEN = [
  {
    id: `${BASE}/inzage-registratie`,
    naam: 'Inzien van de eigen registratie',
    doel: 'De zorgverlener toont zijn registratie, aanvragen, adres en diploma’s.',
    grondslag: AWBIG,
    categorieen: ['BSN', 'naam', 'adres', 'diploma', 'registratiegegevens'],
    bewaartermijn: 'P1Y',
  },
  {
    id: `${BASE}/aanvragen`,
    naam: 'Aanvragen van een (her)registratie',
    doel: 'De zorgverlener stelt een aanvraag op, uploadt bewijsstukken en dient de aanvraag in.',
    grondslag: AWBIG,
    categorieen: ['BSN', 'naam', 'adres', 'diploma', 'werkervaring', 'bewijsstukken'],
    bewaartermijn: 'P7Y',
  },
  {
    id: `${BASE}/wijzigingsverzoek`,
    naam: 'Wijzigen van contactgegevens',
    doel: 'De zorgverlener verzoekt om een wijziging van zijn telefoonnummer.',
    grondslag: AWBIG,
    categorieen: ['BSN', 'telefoonnummer'],
    bewaartermijn: 'P7Y',
  },
  {
    id: `${BASE}/beoordelen`,
    naam: 'Beoordelen en besluiten op een aanvraag',
    doel: 'Een medewerker beoordeelt een ingediende aanvraag en neemt een besluit.',
    grondslag: `${AWBIG}; Awb afdeling 4.1`,
    categorieen: ['BSN', 'naam', 'diploma', 'werkervaring', 'bewijsstukken', 'besluit'],
    bewaartermijn: 'P7Y',
  },
  {
    id: `${BASE}/besluitbrief`,
    naam: 'Opstellen en verzenden van een besluitbrief',
    doel:
      'Het register stelt de brief bij een besluit op, ' +
      'laat hem goedkeuren en verzendt hem, met het registernummer.',
    grondslag: `${AWBIG}; Awb art. 3:41`,
    categorieen: ['BSN', 'naam', 'adres', 'registratienummer', 'besluit'],
    bewaartermijn: 'P7Y',
  },
  {
    id: `${BASE}/zaakspiegeling`,
    naam: 'Spiegelen van een zaak naar het zaaksysteem',
    doel: 'Het register houdt de zaak van een aanvraag bij in het zaaksysteem van de organisatie (archivering).',
    grondslag: `${AWBIG}; Archiefwet 1995 art. 3`,
    categorieen: ['BSN', 'zaakgegevens', 'besluit'],
    bewaartermijn: 'P7Y',
  },
  {
    id: `${BASE}/beheer`,
    naam: 'Beheer van zaken',
    doel: 'Een beheerder verwijdert een zaak of bewijsstuk, of herstelt de spiegeling van een zaak.',
    grondslag: `${AWBIG}; AVG art. 5 lid 1 sub d en e`,
    categorieen: ['BSN', 'zaakgegevens', 'bewijsstukken'],
    bewaartermijn: 'P7Y',
  },
] as const satisfies readonly Verwerkingsactiviteit[];

/** The key of an activity: the last segment of its URI (`aanvragen`), what route tables name. */
export type ActiviteitSleutel = (typeof VERWERKINGSACTIVITEITEN)[number]['id'] extends `${typeof BASE}/${infer K}`
  ? K
  : never;

const BY_KEY: ReadonlyMap<string, Verwerkingsactiviteit> = new Map(
  VERWERKINGSACTIVITEITEN.map((a) => [a.id.slice(BASE.length + 1), a]),
);

/** The activity by its key (looked up for every processing record, so by a map). */
export function verwerkingsactiviteit(sleutel: ActiviteitSleutel): Verwerkingsactiviteit {
  const found = BY_KEY.get(sleutel);
  if (!found) throw new Error(`no processing activity ${sleutel}`);
  return found;
}
