// Shapes of the registration and person views (spec: Registration and person resources).

export type RegistrationTag = 'Geregistreerd' | 'Geschorst' | 'Doorgehaald' | 'NietGeregistreerd';

export interface RegistrationStatus {
  tag: RegistrationTag;
  herregistratieDatum: string | null;
  geschorstTot: string | null;
  reden: string | null;
  doorgehaaldOp: string | null;
}

export interface Registration {
  registerNummer: string | null;
  naam: string | null;
  beroep: string | null;
  registratiedatum: string | null;
  geboortedatum: string | null;
  status: RegistrationStatus;
}

export interface Address {
  straat: string | null;
  postcode: string | null;
  woonplaats: string | null;
}

export interface Aantekening {
  type: string | null;
  omschrijving: string | null;
  datum: string | null;
}

export interface Diploma {
  id: string;
  naam: string;
  instelling: string;
  jaar: number;
  beroep: string;
  /** Obtained abroad: drives which policy questions apply. */
  buitenlands: boolean;
}

export const NOT_REGISTERED: Registration = {
  registerNummer: null,
  naam: null,
  beroep: null,
  registratiedatum: null,
  geboortedatum: null,
  status: { tag: 'NietGeregistreerd', herregistratieDatum: null, geschorstTot: null, reden: null, doorgehaaldOp: null },
};

export const NO_ADDRESS: Address = { straat: null, postcode: null, woonplaats: null };

/** Facts that come from external registries in production; the shipped sources read demo data. */
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
