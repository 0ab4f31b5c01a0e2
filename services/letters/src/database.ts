import type { WithOutbox } from '@register/service-kit';
import type { BriefTable, CaseContextTable } from './briefs/briefs.table';
import type { PassageTable } from './passages/passages.table';
import type { OrgTemplateTable, OrgTemplateVersionTable } from './templates/templates.table';

/** The letters service's own database: one table set per feature, plus the outbox. */
export interface LettersDb extends WithOutbox {
  passage: PassageTable;
  brief: BriefTable;
  case_context: CaseContextTable;
  org_template: OrgTemplateTable;
  org_template_version: OrgTemplateVersionTable;
}
