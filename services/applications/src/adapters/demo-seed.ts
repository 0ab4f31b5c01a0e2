import type { Insertable, Kysely } from 'kysely';
import type { AppDatabase } from '../database';
import type { DemoDiplomasTable, DemoNotesTable, DemoRegistrationsTable } from '../registration/demo-registry.table';

type Reg = Insertable<DemoRegistrationsTable>;
const reg = (r: Partial<Reg> & Pick<Reg, 'subject' | 'naam' | 'beroep' | 'status_tag'>): Reg => ({
  register_nummer: `1${r.subject.slice(1)}01`,
  registratiedatum: '2012-09-01',
  geboortedatum: '1980-04-12',
  herregistratie_over_dagen: null,
  geschorst_over_dagen: null,
  doorgehaald_op: null,
  reden: null,
  ...r,
});

/** The demo subjects of ADR 0007, exactly; any other subject is NietGeregistreerd. */
const DEMO: Reg[] = [
  reg({
    subject: '900000001',
    naam: 'A. de Vries',
    beroep: 'arts',
    status_tag: 'Geregistreerd',
    herregistratie_over_dagen: 90,
  }),
  reg({
    subject: '900000002',
    naam: 'B. Jansen',
    beroep: 'verpleegkundige',
    status_tag: 'Geregistreerd',
    herregistratie_over_dagen: 500,
    geboortedatum: '1975-11-30',
  }),
  reg({
    subject: '900000003',
    naam: 'C. Bakker',
    beroep: 'tandarts',
    status_tag: 'Geschorst',
    herregistratie_over_dagen: 200,
    geschorst_over_dagen: 120,
  }),
  reg({
    subject: '900000004',
    naam: 'D. Visser',
    beroep: 'fysiotherapeut',
    status_tag: 'Doorgehaald',
    doorgehaald_op: '2024-03-15',
    reden: 'op-eigen-verzoek',
  }),
];

const ADDRESSES = [
  { subject: '900000001', straat: 'Lange Voorhout 12', postcode: '2514 EE', woonplaats: 'Den Haag' },
  { subject: '900000002', straat: 'Oudegracht 101', postcode: '3511 AJ', woonplaats: 'Utrecht' },
  { subject: '900000003', straat: 'Coolsingel 40', postcode: '3011 AD', woonplaats: 'Rotterdam' },
];

const NOTES: Insertable<DemoNotesTable>[] = [
  {
    id: 'n-900000001-1',
    subject: '900000001',
    type: 'specialisme',
    omschrijving: 'Specialisme huisartsgeneeskunde ingeschreven',
    datum: '2016-05-01',
  },
  {
    id: 'n-900000003-1',
    subject: '900000003',
    type: 'maatregel',
    omschrijving: 'Schorsing opgelegd door het tuchtcollege',
    datum: '2025-01-10',
  },
];

const DIPLOMAS: Insertable<DemoDiplomasTable>[] = [
  {
    id: 'd-900000001-1',
    subject: '900000001',
    naam: 'Master Geneeskunde',
    instelling: 'Universiteit Leiden',
    jaar: 2011,
    beroep: 'arts',
    buitenlands: false,
  },
  {
    id: 'd-900000001-2',
    subject: '900000001',
    naam: 'Doctor of Medicine',
    instelling: 'KU Leuven',
    jaar: 2009,
    beroep: 'arts',
    buitenlands: true,
  },
  {
    id: 'd-900000002-1',
    subject: '900000002',
    naam: 'Bachelor Verpleegkunde',
    instelling: 'Hogeschool Utrecht',
    jaar: 2004,
    beroep: 'verpleegkundige',
    buitenlands: false,
  },
];

const BEROEPEN = [
  'arts',
  'verpleegkundige',
  'tandarts',
  'apotheker',
  'fysiotherapeut',
  'psychotherapeut',
  'verloskundige',
  'gz-psycholoog',
];
const STRATEN = ['Kerkstraat', 'Dorpsstraat', 'Stationsweg', 'Molenweg', 'Schoolstraat', 'Nieuwstraat'];
const PLAATSEN = ['Amsterdam', 'Groningen', 'Zwolle', 'Maastricht', 'Arnhem', 'Haarlem'];

/** A few dozen generated practitioners (subjects 800000101…) so that lists look real. */
function generated(count: number): {
  regs: Reg[];
  addresses: typeof ADDRESSES;
  diplomas: Insertable<DemoDiplomasTable>[];
} {
  const regs: Reg[] = [];
  const addresses: typeof ADDRESSES = [];
  const diplomas: Insertable<DemoDiplomasTable>[] = [];
  for (let i = 1; i <= count; i++) {
    const subject = `800000${String(100 + i)}`;
    const beroep = BEROEPEN[i % BEROEPEN.length]!;
    regs.push(
      reg({
        subject,
        naam: `Zorgverlener ${i}`,
        beroep,
        status_tag: 'Geregistreerd',
        herregistratie_over_dagen: 30 + ((i * 37) % 900),
      }),
    );
    addresses.push({
      subject,
      straat: `${STRATEN[i % STRATEN.length]} ${i}`,
      postcode: `${1000 + i * 13} AB`,
      woonplaats: PLAATSEN[i % PLAATSEN.length]!,
    });
    diplomas.push({
      id: `d-${subject}-1`,
      subject,
      naam: `Opleiding ${beroep}`,
      instelling: 'Hogeschool van Nederland',
      jaar: 1995 + (i % 25),
      beroep,
      buitenlands: i % 5 === 0,
    });
  }
  return { regs, addresses, diplomas };
}

/** Idempotent: every start brings the demo rows back to their shipped values. */
export async function seedDemoData(db: Kysely<AppDatabase>): Promise<void> {
  const gen = generated(36);
  await db.transaction().execute(async (trx) => {
    for (const r of [...DEMO, ...gen.regs]) {
      await trx
        .insertInto('demo_registrations')
        .values(r)
        .onConflict((oc) => oc.column('subject').doUpdateSet(r))
        .execute();
    }
    for (const a of [...ADDRESSES, ...gen.addresses]) {
      await trx
        .insertInto('demo_addresses')
        .values(a)
        .onConflict((oc) => oc.column('subject').doUpdateSet(a))
        .execute();
    }
    for (const n of NOTES)
      await trx
        .insertInto('demo_notes')
        .values(n)
        .onConflict((oc) => oc.column('id').doUpdateSet(n))
        .execute();
    for (const d of [...DIPLOMAS, ...gen.diplomas]) {
      await trx
        .insertInto('demo_diplomas')
        .values(d)
        .onConflict((oc) => oc.column('id').doUpdateSet(d))
        .execute();
    }
  });
}
