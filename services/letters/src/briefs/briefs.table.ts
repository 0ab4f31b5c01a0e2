import type { ColumnType, Generated } from 'kysely';
import type { LetterSection } from '../content/content.schemas';

type Json<T> = ColumnType<T, string, string>;

/** One letter: the shared working brief (`is_shared`) or the brief of one decided case. */
export interface BriefTable {
  brief_id: string;
  is_shared: Generated<boolean>;
  application_id: string | null;
  referentie: string | null;
  beroep: string | null;
  besluit: string | null;
  template_id: string;
  sections: Json<LetterSection[]>;
  /** The value copy made at submit: what is reviewed, approved and sent. */
  frozen_sections: ColumnType<LetterSection[] | null, string | null, string | null>;
  status_tag: string;
  submitted_by: string | null;
  submitted_at: Date | null;
  approved_by: string | null;
  approved_at: Date | null;
  rejected_by: string | null;
  rejected_at: Date | null;
  comments: string | null;
  sent_at: Date | null;
  drafter_id: string | null;
  /** The org-template version pinned at send. */
  template_version: number | null;
  /** Raised by every write (int8: node-postgres gives it as a string). */
  revision: ColumnType<string, never, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Letters' own copy of the case context (fetched once from the applications service; personal data stays here). */
export interface CaseContextTable {
  brief_id: string;
  application_id: string | null;
  referentie: string | null;
  type: string | null;
  besluit: string | null;
  toelichting: string | null;
  decided_at: string | null;
  beroep: string | null;
  zorgverlener_naam: string | null;
  register_nummer: string | null;
  /** The practitioner the letter is about: the data subject of its processing records (ADR 0182). */
  subject: ColumnType<string | null, string | null | undefined, string | null>;
  fetched_at: Generated<Date>;
}
