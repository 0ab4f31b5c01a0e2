import type { Generated } from 'kysely';

/** A healed divergence (the console's "healed in the last 24 hours"); nothing else reads it. */
export interface CaseMirrorHealsTable {
  referentie: string;
  healed_at: Generated<Date>;
}
