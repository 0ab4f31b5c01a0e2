import type { ColumnType, Generated } from 'kysely';

/** A jsonb column: read as T, written as JSON text. */
export type Json<T> = ColumnType<T, string, string>;

/** One application (a case once submitted); every feature of this service reads it. */
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
