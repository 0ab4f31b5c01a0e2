import type { Beleidsvraag, ReferencePort } from '../adapters/reference-client';
import type { FlagReader } from '@register/service-kit';
import { todayInAmsterdam, type Clock } from './clock';
import { HERREGISTRATIE_FLAG, herregistratieDecisions, type HerregistratieDecisions } from './eligibility';
import { NO_ADDRESS, type Aantekening, type Address, type Diploma, type EducationSource, type PopulationSource, type RegisterSource, type Registration } from './registration';

export interface PersonDeps {
  register: RegisterSource;
  population: PopulationSource;
  education: EducationSource;
  reference: ReferencePort;
  flags: FlagReader;
  clock: Clock;
}

export interface PolicyQuestion {
  id: string;
  vraag: string;
  type: string;
}

/** Server rule: which policy questions a diploma raises. A foreign diploma needs recognition and language. */
export const DIPLOMA_QUESTIONS = { binnenlands: [] as string[], buitenlands: ['buitenlands-diploma-erkend', 'taalvaardigheid'] };
/** A manually entered diploma's origin is unknown, so every question applies. */
export const MANUAL_QUESTIONS = ['buitenlands-diploma-erkend', 'taalvaardigheid', 'werkervaring-buitenland'];

/** The one place that decides eligibility for a subject: used by the dashboard and by create. */
export async function herregistratieFor(deps: PersonDeps, subject: string): Promise<{ registration: Registration; decisions: HerregistratieDecisions }> {
  const today = todayInAmsterdam(deps.clock);
  const registration = await deps.register.registrationOf(subject, today);
  const decisions = herregistratieDecisions(registration, today, await deps.flags.isEnabled(HERREGISTRATIE_FLAG));
  return { registration, decisions };
}

export async function dashboardView(deps: PersonDeps, subject: string) {
  const [{ registration, decisions }, person, adres] = await Promise.all([
    herregistratieFor(deps, subject),
    deps.population.personOf(subject),
    deps.population.addressOf(subject),
  ]);
  return {
    registration,
    person: { naam: person?.naam ?? null, geboortedatum: person?.geboortedatum ?? null, adres: toAddress(adres) },
    decisions,
  };
}

export async function notes(deps: PersonDeps, subject: string): Promise<Aantekening[]> {
  return deps.register.notesOf(subject);
}

export async function populationAddress(deps: PersonDeps, subject: string): Promise<{ gevonden: boolean; adres: Address }> {
  const adres = await deps.population.addressOf(subject);
  return { gevonden: adres !== null, adres: toAddress(adres) };
}

export async function educationLookup(deps: PersonDeps, subject: string) {
  const [diplomas, vragen, beroepen] = await Promise.all([deps.education.diplomasOf(subject), deps.reference.beleidsvragen(), deps.reference.beroepCodes()]);
  const byId = new Map(vragen.map((v) => [v.id, v]));
  return {
    diplomas: diplomas.map((d: Diploma) => ({
      id: d.id,
      naam: d.naam,
      instelling: d.instelling,
      jaar: d.jaar,
      beroep: d.beroep,
      policyQuestions: questions(d.buitenlands ? DIPLOMA_QUESTIONS.buitenlands : DIPLOMA_QUESTIONS.binnenlands, byId),
    })),
    handmatig: { beroepen, policyQuestions: questions(MANUAL_QUESTIONS, byId) },
  };
}

// A question whose wording is missing from stamdata is left out rather than shown without text.
function questions(ids: string[], byId: Map<string, Beleidsvraag>): PolicyQuestion[] {
  return ids.flatMap((id) => {
    const v = byId.get(id);
    return v ? [{ id: v.id, vraag: v.vraag, type: v.type }] : [];
  });
}

function toAddress(adres: Address | null): Address {
  return adres ? { straat: adres.straat, postcode: adres.postcode, woonplaats: adres.woonplaats } : { ...NO_ADDRESS };
}
