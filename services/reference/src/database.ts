import type { WithOutbox } from '@register/service-kit';
import type { FeatureFlagTable } from './flags/flags.table';
import type { StamdataRowTable, StamdataTableTable } from './stamdata/stamdata.table';

/** The reference service's own database: one table set per feature, plus the outbox. */
export interface ReferenceDb extends WithOutbox {
  stamdata_table: StamdataTableTable;
  stamdata_row: StamdataRowTable;
  feature_flag: FeatureFlagTable;
}
