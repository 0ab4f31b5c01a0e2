import type { Migration } from 'kysely';
import * as init from './2026-11-22T1500_init';
import * as letters from './2026-12-01T0900_letters';
import * as briefRevision from './2026-12-02T0900_brief_revision';
import * as caseContextSubject from './2026-12-02T0901_case_context_subject';

/** Frozen migrations in order; a new one is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1500_init': init,
  '2026-12-01T0900_letters': letters,
  '2026-12-02T0900_brief_revision': briefRevision,
  '2026-12-02T0901_case_context_subject': caseContextSubject,
};
