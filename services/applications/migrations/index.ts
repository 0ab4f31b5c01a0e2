import type { Migration } from 'kysely';
import * as init from './2026-11-22T1600_init';
import * as caseMirror from './2026-11-23T0915_case_mirror';
import * as caseMirrorTrace from './2026-12-03T0900_case_mirror_trace';
import * as caseMirrorHeals from './2026-12-20T1000_case_mirror_heals';

/** Frozen migrations in order; a new one is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1600_init': init,
  '2026-11-23T0915_case_mirror': caseMirror,
  '2026-12-03T0900_case_mirror_trace': caseMirrorTrace,
  '2026-12-20T1000_case_mirror_heals': caseMirrorHeals,
};
