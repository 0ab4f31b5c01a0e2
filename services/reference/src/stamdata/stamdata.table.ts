import type { ColumnType } from 'kysely';
import type { SeedColumn } from './stamdata.seed';

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
