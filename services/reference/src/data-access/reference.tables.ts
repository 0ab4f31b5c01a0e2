import type { ColumnType, Generated } from 'kysely';
import type { WithOutbox } from '@register/service-kit';
import type { SeedColumn } from '../seed/stamdata.seed';

export interface StamdataTableTable {
  id: string;
  label: string;
  temporal: boolean;
  columns: ColumnType<SeedColumn[], string, string>;
  position: number;
}

export interface StamdataRowTable {
  table_id: string;
  row_key: string;
  geldig_vanaf: string | null;
  geldig_tot: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  position: number;
}

export interface FeatureFlagTable {
  key: string;
  description: string | null;
  enabled: boolean;
  updated_at: Generated<Date>;
}

export interface ReferenceDb extends WithOutbox {
  stamdata_table: StamdataTableTable;
  stamdata_row: StamdataRowTable;
  feature_flag: FeatureFlagTable;
}
