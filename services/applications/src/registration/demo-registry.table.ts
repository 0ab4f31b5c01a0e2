// The demo stand-ins for the external registries (register, population, education), stored in this
// service's own database; the demo sources (adapters/demo-sources) read them and the demo seed fills them.

export interface DemoRegistrationsTable {
  subject: string;
  register_nummer: string;
  naam: string;
  beroep: string;
  registratiedatum: string;
  geboortedatum: string;
  status_tag: string;
  herregistratie_over_dagen: number | null;
  geschorst_over_dagen: number | null;
  doorgehaald_op: string | null;
  reden: string | null;
}

export interface DemoAddressesTable {
  subject: string;
  straat: string;
  postcode: string;
  woonplaats: string;
}

export interface DemoNotesTable {
  id: string;
  subject: string;
  type: string;
  omschrijving: string;
  datum: string;
}

export interface DemoDiplomasTable {
  id: string;
  subject: string;
  naam: string;
  instelling: string;
  jaar: number;
  beroep: string;
  buitenlands: boolean;
}
