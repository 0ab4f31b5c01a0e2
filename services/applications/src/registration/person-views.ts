import type { Context } from '../context';
import { herregistratieFor } from './eligibility';
import type {
  Aantekening,
  Address,
  DashboardView,
  EducationLookup,
  PolicyQuestion,
  PopulationAddress,
} from './registration.schemas';
import { NO_ADDRESS, type Beleidsvraag } from './sources';

/** Server rule: which policy questions a diploma raises. A foreign diploma needs recognition and language. */
export const DIPLOMA_QUESTIONS = {
  binnenlands: [] as string[],
  buitenlands: ['buitenlands-diploma-erkend', 'taalvaardigheid'],
};
/** A manually entered diploma's origin is unknown, so every question applies. */
export const MANUAL_QUESTIONS = ['buitenlands-diploma-erkend', 'taalvaardigheid', 'werkervaring-buitenland'];

export async function dashboardView(ctx: Context, subject: string): Promise<DashboardView> {
  const [{ registration, decisions }, person, adres] = await Promise.all([
    herregistratieFor(ctx, subject),
    ctx.population.personOf(subject),
    ctx.population.addressOf(subject),
  ]);
  return {
    registration,
    person: { naam: person?.naam ?? null, geboortedatum: person?.geboortedatum ?? null, adres: toAddress(adres) },
    decisions,
  };
}

export async function notes(ctx: Context, subject: string): Promise<Aantekening[]> {
  return ctx.register.notesOf(subject);
}

export async function populationAddress(ctx: Context, subject: string): Promise<PopulationAddress> {
  const adres = await ctx.population.addressOf(subject);
  return { gevonden: adres !== null, adres: toAddress(adres) };
}

export async function educationLookup(ctx: Context, subject: string): Promise<EducationLookup> {
  const [diplomas, vragen, beroepen] = await Promise.all([
    ctx.education.diplomasOf(subject),
    ctx.stamdata.beleidsvragen(),
    ctx.stamdata.beroepCodes(),
  ]);
  const byId = new Map(vragen.map((v) => [v.id, v]));
  return {
    diplomas: diplomas.map((d) => ({
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
