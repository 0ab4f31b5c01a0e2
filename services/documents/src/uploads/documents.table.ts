import type { ColumnType, Selectable } from 'kysely';

export interface DocumentTable {
  id: string;
  owner: string;
  local_id: string | null;
  wizard_id: string;
  category_id: string;
  multiple: boolean;
  application_id: string | null;
  file_name: string;
  content_type: string;
  /** bigint; the kit's type parser returns it as a number (files stay far below 2^53). */
  size_bytes: ColumnType<number, number, never>;
  sha256: string;
  object_key: string;
  linked_application_id: string | null;
  linked_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type DocumentRow = Selectable<DocumentTable>;
