import type { Migration } from 'kysely';
import * as initial from './20260601T000000-initial';

/** Every migration, by its frozen timestamp name. */
export const migrations: Record<string, Migration> = {
  '20260601T000000-initial': initial,
};
