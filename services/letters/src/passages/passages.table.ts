import type { ColumnType, Generated } from 'kysely';
import type { RichTextBlock } from '../content/content.schemas';

/** One version of a standard passage; a changed text is a new version, old ones stay (blocks refer to them). */
export interface PassageTable {
  passage_id: string;
  version: number;
  scope: string;
  section_key: string;
  label: string;
  content: ColumnType<RichTextBlock, string, string>;
  beroep: string | null;
  is_default: boolean;
  besluit: string | null;
  reason: string | null;
  created_at: Generated<Date>;
}
