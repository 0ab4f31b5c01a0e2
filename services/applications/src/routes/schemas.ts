import { z } from 'zod';

// Contract shapes (spec: Application, Registration and Assessment resources); closed objects.
const s = z.string().nullable();

export const ApplicationStatus = z.strictObject({ tag: s, stepIndex: z.number().int().nullable(), stepCount: z.number().int().nullable(), referentie: s, manual: z.boolean().nullable(), reden: s }).meta({ id: 'ApplicationStatus' });
export const ApplicationSummary = z
  .strictObject({ id: s, type: s, status: ApplicationStatus, documentIds: z.array(z.string()).nullable(), createdAt: s, updatedAt: s, submittedAt: s, owner: s })
  .meta({ id: 'ApplicationSummary' });
export const ApplicationDetail = z
  .strictObject({ id: s, type: s, status: ApplicationStatus, draft: z.unknown(), documentIds: z.array(z.string()).nullable(), createdAt: s, updatedAt: s, submittedAt: s })
  .meta({ id: 'ApplicationDetail' });
export const CreateApplicationRequest = z.object({ type: s }).meta({ id: 'CreateApplicationRequest' });
export const DocumentRef = z.object({ categoryId: s, channel: s, documentId: s }).meta({ id: 'DocumentRef' });
export const SubmitApplicationRequest = z
  .object({ diplomaHerkomst: s, uren: z.number().int().nullable(), documents: z.array(DocumentRef).nullable(), aanvullendeScholing: z.boolean().nullable(), scholingPunten: z.number().int().nullable() })
  .partial()
  .meta({ id: 'SubmitApplicationRequest' });
export const SubmitApplicationResponse = z.strictObject({ referentie: s, status: ApplicationStatus }).meta({ id: 'SubmitApplicationResponse' });
export const ReferentieResponse = z.strictObject({ referentie: s }).meta({ id: 'ReferentieResponse' });
export const ChangeRequestRequest = z.object({ telefoon: s }).meta({ id: 'ChangeRequestRequest' });

const Address = z.strictObject({ straat: s, postcode: s, woonplaats: s }).meta({ id: 'Address' });
const RegistrationStatus = z.strictObject({ tag: s, herregistratieDatum: s, geschorstTot: s, reden: s, doorgehaaldOp: s }).meta({ id: 'RegistrationStatus' });
const Registration = z.strictObject({ registerNummer: s, naam: s, beroep: s, registratiedatum: s, geboortedatum: s, status: RegistrationStatus }).meta({ id: 'Registration' });
const Person = z.strictObject({ naam: s, geboortedatum: s, adres: Address }).meta({ id: 'Person' });
const HerregistratieDecisions = z.strictObject({ eligibleForHerregistratie: z.boolean(), herregistratieReason: s }).meta({ id: 'HerregistratieDecisions' });
export const DashboardView = z.strictObject({ registration: Registration, person: Person, decisions: HerregistratieDecisions }).meta({ id: 'DashboardView' });
export const Aantekening = z.strictObject({ type: s, omschrijving: s, datum: s }).meta({ id: 'Aantekening' });
export const PopulationAddress = z.strictObject({ gevonden: z.boolean(), adres: Address }).meta({ id: 'PopulationAddress' });
const PolicyQuestion = z.strictObject({ id: s, vraag: s, type: s }).meta({ id: 'PolicyQuestion' });
const EducationDiploma = z
  .strictObject({ id: s, naam: s, instelling: s, jaar: z.number().int(), beroep: s, policyQuestions: z.array(PolicyQuestion).nullable() })
  .meta({ id: 'EducationDiploma' });
const ManualDiplomaPolicy = z.strictObject({ beroepen: z.array(z.string()).nullable(), policyQuestions: z.array(PolicyQuestion).nullable() }).meta({ id: 'ManualDiplomaPolicy' });
export const EducationLookup = z.strictObject({ diplomas: z.array(EducationDiploma).nullable(), handmatig: ManualDiplomaPolicy }).meta({ id: 'EducationLookup' });
export const IntakePolicy = z.strictObject({ scholingThreshold: z.number().int() }).meta({ id: 'IntakePolicy' });

const BeoordelingDocument = z.strictObject({ documentId: s, categoryId: s, fileName: s }).meta({ id: 'BeoordelingDocument' });
export const BeoordelingView = z
  .strictObject({ aanvraag: ApplicationSummary, documenten: z.array(BeoordelingDocument).nullable(), decisions: z.strictObject({ canBesluiten: z.boolean() }) })
  .meta({ id: 'BeoordelingView' });
export const RecordBesluitRequest = z.object({ besluit: s, toelichting: s }).partial().meta({ id: 'RecordBesluitRequest' });
export const RecordBesluitResponse = z.strictObject({ status: ApplicationStatus }).meta({ id: 'RecordBesluitResponse' });
