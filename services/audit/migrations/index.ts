import type { Migration } from 'kysely';
import * as init from './2026-11-22T1500_init';
import * as logbook from './2026-11-26T2100_logbook';

/** Frozen migrations in order; a new one is a new file added here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1500_init': init,
  '2026-11-26T2100_logbook': logbook,
};
