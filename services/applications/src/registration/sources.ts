import type { Aantekening, Address, Registration } from './registration.schemas';

export type RegistrationTag = 'Geregistreerd' | 'Geschorst' | 'Doorgehaald' | 'NietGeregistreerd';

export interface Diploma {
  id: string;
  naam: string;
  instelling: string;
  jaar: number;
  beroep: string;
  /** Obtained abroad: drives which policy questions apply. */
  buitenlands: boolean;
}

/** A policy question's wording as stamdata (table `beleidsvragen`) holds it; business-editable. */
export interface Beleidsvraag {
  id: string;
  vraag: string;
  type: string;
}

/**
 * Facts that come from external registries in production (ADR 0007); the shipped sources read demo
 * data (adapters/demo-sources). Ports: the features depend on these, context.ts wires an implementation.
 */
export interface RegisterSource {
  registrationOf(subject: string, today: string): Promise<Registration>;
  notesOf(subject: string): Promise<Aantekening[]>;
}
export interface PopulationSource {
  addressOf(subject: string): Promise<Address | null>;
  /** Name and birth date as the population registry knows them. */
  personOf(subject: string): Promise<{ naam: string; geboortedatum: string } | null>;
}
export interface EducationSource {
  diplomasOf(subject: string): Promise<Diploma[]>;
}
/** The reference service's stamdata, as this service reads it. */
export interface StamdataSource {
  beleidsvragen(): Promise<Beleidsvraag[]>;
  beroepCodes(): Promise<string[]>;
}

/** What the register answers for a subject it does not know. */
export const NOT_REGISTERED: Registration = {
  registerNummer: null,
  naam: null,
  beroep: null,
  registratiedatum: null,
  geboortedatum: null,
  status: { tag: 'NietGeregistreerd', herregistratieDatum: null, geschorstTot: null, reden: null, doorgehaaldOp: null },
};

export const NO_ADDRESS: Address = { straat: null, postcode: null, woonplaats: null };
