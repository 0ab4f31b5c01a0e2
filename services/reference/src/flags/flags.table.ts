import type { Generated } from 'kysely';

export interface FeatureFlagTable {
  key: string;
  description: string | null;
  enabled: boolean;
  updated_at: Generated<Date>;
}
