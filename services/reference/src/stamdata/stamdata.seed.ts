/** Shipped reference data: realistic Dutch professions, programmes (with valid time), specialisms, policy questions. */
export interface SeedColumn {
  name: string;
  type: string;
  isKey: boolean;
  options: string[] | null;
}
export interface SeedTable {
  id: string;
  label: string;
  temporal: boolean;
  columns: SeedColumn[];
  rows: Array<Record<string, string | number | boolean | null>>;
}

const col = (name: string, type: string, isKey = false, options: string[] | null = null): SeedColumn => ({ name, type, isKey, options });

const beroepen: Array<[string, string, string]> = [
  ['arts', 'Arts', 'artikel-3'],
  ['tandarts', 'Tandarts', 'artikel-3'],
  ['apotheker', 'Apotheker', 'artikel-3'],
  ['gz-psycholoog', 'Gezondheidszorgpsycholoog', 'artikel-3'],
  ['psychotherapeut', 'Psychotherapeut', 'artikel-3'],
  ['fysiotherapeut', 'Fysiotherapeut', 'artikel-3'],
  ['verloskundige', 'Verloskundige', 'artikel-3'],
  ['verpleegkundige', 'Verpleegkundige', 'artikel-3'],
  ['physician-assistant', 'Physician assistant', 'artikel-3'],
  ['klinisch-technoloog', 'Klinisch technoloog', 'artikel-3'],
  ['orthopedagoog-generalist', 'Orthopedagoog-generalist', 'artikel-3'],
  ['verpleegkundig-specialist', 'Verpleegkundig specialist', 'artikel-3'],
];

// [code, naam, instelling, beroep, niveau, geldigVanaf, geldigTot]
const opleidingen: Array<[string, string, string, string, string, string, string | null]> = [
  ['geneeskunde-uva', 'Master Geneeskunde', 'Universiteit van Amsterdam', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-uu', 'Master Geneeskunde', 'Universiteit Utrecht', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-eur', 'Master Geneeskunde', 'Erasmus Universiteit Rotterdam', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-rug', 'Master Geneeskunde', 'Rijksuniversiteit Groningen', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-ru', 'Master Geneeskunde', 'Radboud Universiteit', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-ul', 'Master Geneeskunde', 'Universiteit Leiden', 'arts', 'master', '2003-09-01', null],
  ['geneeskunde-um', 'Master Geneeskunde', 'Universiteit Maastricht', 'arts', 'master', '2003-09-01', null],
  ['artsexamen-oud', 'Artsexamen (doctoraal-structuur)', 'Universiteit van Amsterdam', 'arts', 'doctoraal', '1980-01-01', '2006-09-01'],
  ['tandheelkunde-acta', 'Master Tandheelkunde', 'ACTA Amsterdam', 'tandarts', 'master', '2005-09-01', null],
  ['tandheelkunde-ru', 'Master Tandheelkunde', 'Radboud Universiteit', 'tandarts', 'master', '2005-09-01', null],
  ['tandheelkunde-rug', 'Master Tandheelkunde', 'Rijksuniversiteit Groningen', 'tandarts', 'master', '2005-09-01', null],
  ['farmacie-uu', 'Master Farmacie', 'Universiteit Utrecht', 'apotheker', 'master', '2004-09-01', null],
  ['farmacie-rug', 'Master Farmacie', 'Rijksuniversiteit Groningen', 'apotheker', 'master', '2004-09-01', null],
  ['farmacie-ul', 'Master Bio-Farmaceutische Wetenschappen', 'Universiteit Leiden', 'apotheker', 'master', '2006-09-01', '2019-09-01'],
  ['gz-opleiding-rino', 'Postmaster GZ-psycholoog', 'RINO Amsterdam', 'gz-psycholoog', 'postmaster', '2000-01-01', null],
  ['gz-opleiding-rinozh', 'Postmaster GZ-psycholoog', 'RINO Zuid-Holland', 'gz-psycholoog', 'postmaster', '2000-01-01', '2024-01-01'],
  ['gz-opleiding-psytrec', 'Postmaster GZ-psycholoog', 'PsyTrec Opleidingen', 'gz-psycholoog', 'postmaster', '2027-01-01', null],
  ['psychotherapie-rino', 'Opleiding Psychotherapeut', 'RINO Amsterdam', 'psychotherapeut', 'postmaster', '2000-01-01', null],
  ['fysiotherapie-hva', 'Bachelor Fysiotherapie', 'Hogeschool van Amsterdam', 'fysiotherapeut', 'bachelor', '2002-09-01', null],
  ['fysiotherapie-hu', 'Bachelor Fysiotherapie', 'Hogeschool Utrecht', 'fysiotherapeut', 'bachelor', '2002-09-01', null],
  ['fysiotherapie-hhs', 'Bachelor Fysiotherapie', 'De Haagse Hogeschool', 'fysiotherapeut', 'bachelor', '2002-09-01', null],
  ['fysiotherapie-avans-oud', 'Opleiding Fysiotherapie (vierjarig, oud)', 'Avans Hogeschool', 'fysiotherapeut', 'hbo', '1990-09-01', '2008-09-01'],
  ['verloskunde-avag', 'Bachelor Verloskunde', 'AVAG Amsterdam', 'verloskundige', 'bachelor', '2000-09-01', null],
  ['verloskunde-kenvak', 'Bachelor Verloskunde', 'Kenvak Maastricht', 'verloskundige', 'bachelor', '2000-09-01', null],
  ['verloskunde-arv', 'Bachelor Verloskunde', 'Academie Verloskunde Rotterdam', 'verloskundige', 'bachelor', '2000-09-01', null],
  ['hbo-v-hva', 'Bachelor Verpleegkunde', 'Hogeschool van Amsterdam', 'verpleegkundige', 'bachelor', '2000-09-01', null],
  ['hbo-v-hanze', 'Bachelor Verpleegkunde', 'Hanzehogeschool Groningen', 'verpleegkundige', 'bachelor', '2000-09-01', null],
  ['mbo-v-roc', 'MBO Verpleegkunde niveau 4', 'ROC van Amsterdam', 'verpleegkundige', 'mbo-4', '1997-08-01', null],
  ['inservice-v', 'Inservice-opleiding Verpleegkunde (A-verpleegkundige)', 'Diverse ziekenhuizen', 'verpleegkundige', 'inservice', '1970-01-01', '2000-01-01'],
  ['verpleegkunde-nieuw-profiel', 'Bachelor Verpleegkunde (beroepsprofiel 2030)', 'Hogeschool Rotterdam', 'verpleegkundige', 'bachelor', '2027-09-01', null],
  ['mpa-hu', 'Master Physician Assistant', 'Hogeschool Utrecht', 'physician-assistant', 'master', '2003-09-01', null],
  ['mpa-han', 'Master Physician Assistant', 'Hogeschool van Arnhem en Nijmegen', 'physician-assistant', 'master', '2003-09-01', null],
  ['klinische-technologie-tud', 'Master Klinische Technologie', 'TU Delft / Erasmus MC / Leiden', 'klinisch-technoloog', 'master', '2014-09-01', null],
  ['klinische-technologie-ut', 'Master Technical Medicine', 'Universiteit Twente', 'klinisch-technoloog', 'master', '2012-09-01', null],
  ['orthopedagogiek-nvo', 'Postmaster Orthopedagoog-generalist', 'RINO Groep', 'orthopedagoog-generalist', 'postmaster', '2018-01-01', null],
  ['mans-hanze', 'Master Advanced Nursing Practice', 'Hanzehogeschool Groningen', 'verpleegkundig-specialist', 'master', '2009-09-01', null],
];

const specialismen: Array<[string, string, string]> = [
  ['huisartsgeneeskunde', 'Huisartsgeneeskunde', 'arts'],
  ['cardiologie', 'Cardiologie', 'arts'],
  ['interne-geneeskunde', 'Interne geneeskunde', 'arts'],
  ['kindergeneeskunde', 'Kindergeneeskunde', 'arts'],
  ['psychiatrie', 'Psychiatrie', 'arts'],
  ['chirurgie', 'Heelkunde', 'arts'],
  ['ouderengeneeskunde', 'Specialisme ouderengeneeskunde', 'arts'],
  ['orthodontie', 'Dento-maxillaire orthopedie', 'tandarts'],
  ['kaakchirurgie', 'Mondziekten, kaak- en aangezichtschirurgie', 'tandarts'],
  ['ziekenhuisfarmacie', 'Ziekenhuisfarmacie', 'apotheker'],
  ['klinische-psychologie', 'Klinische psychologie', 'gz-psycholoog'],
  ['klinische-neuropsychologie', 'Klinische neuropsychologie', 'gz-psycholoog'],
];

const beleidsvragen: Array<[string, string, string]> = [
  ['taalvaardigheid', 'Heeft u een bewijs dat u de Nederlandse taal beheerst op minimaal niveau B2?', 'ja-nee'],
  ['buitenlands-diploma-erkend', 'Is uw buitenlandse diploma erkend door de Minister van VWS?', 'ja-nee'],
  ['werkervaring-buitenland', 'Hoeveel uur heeft u de afgelopen vijf jaar buiten Nederland in uw beroep gewerkt?', 'getal'],
  ['tuchtmaatregel', 'Is aan u in het buitenland een beperking of maatregel opgelegd die uw beroepsuitoefening raakt?', 'ja-nee'],
  ['toelichting-diploma', 'Licht toe welke opleiding u heeft gevolgd en waar.', 'tekst'],
];

export const STAMDATA_SEED: SeedTable[] = [
  {
    id: 'beroepen',
    label: 'Beroepen',
    temporal: false,
    columns: [col('code', 'string', true), col('naam', 'string'), col('wettelijkeBasis', 'enum', false, ['artikel-3', 'artikel-34'])],
    rows: beroepen.map(([code, naam, wettelijkeBasis]) => ({ code, naam, wettelijkeBasis })),
  },
  {
    id: 'opleidingen',
    label: 'Opleidingen',
    temporal: true,
    columns: [
      col('code', 'string', true),
      col('naam', 'string'),
      col('instelling', 'string'),
      col('beroep', 'ref:beroepen.code'),
      col('niveau', 'enum', false, ['mbo-4', 'hbo', 'bachelor', 'master', 'doctoraal', 'postmaster', 'inservice']),
      col('geldigVanaf', 'date'),
      col('geldigTot', 'date'),
    ],
    rows: opleidingen.map(([code, naam, instelling, beroep, niveau, geldigVanaf, geldigTot]) => ({ code, naam, instelling, beroep, niveau, geldigVanaf, geldigTot })),
  },
  {
    id: 'specialismen',
    label: 'Specialismen',
    temporal: false,
    columns: [col('code', 'string', true), col('naam', 'string'), col('beroep', 'ref:beroepen.code')],
    rows: specialismen.map(([code, naam, beroep]) => ({ code, naam, beroep })),
  },
  {
    id: 'beleidsvragen',
    label: 'Beleidsvragen',
    temporal: false,
    columns: [col('id', 'string', true), col('vraag', 'string'), col('type', 'enum', false, ['ja-nee', 'tekst', 'getal'])],
    rows: beleidsvragen.map(([id, vraag, type]) => ({ id, vraag, type })),
  },
];
