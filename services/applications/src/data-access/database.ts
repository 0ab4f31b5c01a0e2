import type { ColumnType, Generated } from 'kysely';
import type { WithOutbox } from '@register/service-kit';

type Json<T> = ColumnType<T, string, string>;

export interface DocumentLinkRef {
  documentId: string;
  categoryId: string;
}

export interface ApplicationsTable {
  id: string;
  owner: string;
  type: string;
  status_tag: string;
  step_index: number | null;
  step_count: number | null;
  referentie: string | null;
  manual: Generated<boolean>;
  reden: string | null;
  draft: Json<unknown> | null;
  document_ids: Json<string[]>;
  submission: Json<unknown> | null;
  besluit: string | null;
  toelichting: string | null;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
  decided_at: Date | null;
}

export interface DocumentLinkJobsTable {
  application_id: string;
  owner: string;
  documents: Json<DocumentLinkRef[]>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  created_at: Generated<Date>;
}

export interface ChangeRequestsTable {
  id: string;
  referentie: string;
  owner: string;
  telefoon: string;
  created_at: Date;
}

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

export interface AppDatabase extends WithOutbox {
  applications: ApplicationsTable;
  document_link_jobs: DocumentLinkJobsTable;
  change_requests: ChangeRequestsTable;
  demo_registrations: DemoRegistrationsTable;
  demo_addresses: DemoAddressesTable;
  demo_notes: DemoNotesTable;
  demo_diplomas: DemoDiplomasTable;
}
