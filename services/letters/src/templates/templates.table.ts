import type { ColumnType, Generated } from 'kysely';
import type { TemplateContent } from './templates.schemas';

export interface OrgTemplateTable {
  sub_org_id: string;
  draft: ColumnType<TemplateContent, string, string>;
  published_version: number;
  updated_at: Generated<Date>;
}

/** Append-only history: every publish (and every rollback) adds one version. */
export interface OrgTemplateVersionTable {
  sub_org_id: string;
  version: number;
  published_at: Date;
  template: ColumnType<TemplateContent, string, string>;
}
