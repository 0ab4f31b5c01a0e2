import { z } from 'zod';
import { int32 } from '../cases/application.schemas';

// Contract shapes (spec: Registration and person resources); closed objects, absent values are null.
const s = z.string().nullable();
const date = z.string().nullable().meta({ format: 'date' });

export const Address = z.strictObject({ straat: s, postcode: s, woonplaats: s }).meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

export const RegistrationStatus = z
  .strictObject({ tag: s, herregistratieDatum: date, geschorstTot: date, reden: s, doorgehaaldOp: date })
  .meta({ id: 'RegistrationStatus', description: 'tag: Geregistreerd, Geschorst, Doorgehaald or NietGeregistreerd.' });
export const Registration = z
  .strictObject({
    registerNummer: s,
    naam: s,
    beroep: s,
    registratiedatum: date,
    geboortedatum: date,
    status: RegistrationStatus,
  })
  .meta({ id: 'Registration' });
export type Registration = z.infer<typeof Registration>;

export const Person = z.strictObject({ naam: s, geboortedatum: date, adres: Address }).meta({ id: 'Person' });
export const HerregistratieDecisions = z
  .strictObject({ eligibleForHerregistratie: z.boolean(), herregistratieReason: s })
  .meta({
    id: 'HerregistratieDecisions',
    description:
      'herregistratieReason: niet-geregistreerd, doorgehaald, ' +
      'geschorst, te-vroeg or uitgeschakeld; null when eligible.',
  });
export type HerregistratieDecisions = z.infer<typeof HerregistratieDecisions>;
export const DashboardView = z
  .strictObject({ registration: Registration, person: Person, decisions: HerregistratieDecisions })
  .meta({ id: 'DashboardView' });
export type DashboardView = z.infer<typeof DashboardView>;

export const Aantekening = z.strictObject({ type: s, omschrijving: s, datum: date }).meta({ id: 'Aantekening' });
export type Aantekening = z.infer<typeof Aantekening>;
export const PopulationAddress = z
  .strictObject({ gevonden: z.boolean(), adres: Address })
  .meta({ id: 'PopulationAddress' });
export type PopulationAddress = z.infer<typeof PopulationAddress>;

export const PolicyQuestion = z
  .strictObject({ id: s, vraag: s, type: s.meta({ description: 'ja-nee, tekst or getal' }) })
  .meta({ id: 'PolicyQuestion' });
export type PolicyQuestion = z.infer<typeof PolicyQuestion>;
const EducationDiploma = z
  .strictObject({
    id: s,
    naam: s,
    instelling: s,
    jaar: int32,
    beroep: s,
    policyQuestions: z.array(PolicyQuestion).nullable(),
  })
  .meta({ id: 'EducationDiploma' });
const ManualDiplomaPolicy = z
  .strictObject({ beroepen: z.array(z.string()).nullable(), policyQuestions: z.array(PolicyQuestion).nullable() })
  .meta({ id: 'ManualDiplomaPolicy' });
export const EducationLookup = z
  .strictObject({ diplomas: z.array(EducationDiploma).nullable(), handmatig: ManualDiplomaPolicy })
  .meta({ id: 'EducationLookup' });
export type EducationLookup = z.infer<typeof EducationLookup>;

export const IntakePolicy = z.strictObject({ scholingThreshold: int32 }).meta({ id: 'IntakePolicy' });
