import { z } from 'zod';

export const StamdataColumn = z.strictObject({ name: z.string().nullable(), type: z.string().nullable(), isKey: z.boolean(), options: z.array(z.string()).nullable() }).meta({ id: 'StamdataColumn' });
export const StamdataTableSummary = z
  .strictObject({ id: z.string().nullable(), label: z.string().nullable(), columns: z.array(StamdataColumn).nullable(), temporal: z.boolean() })
  .meta({ id: 'StamdataTableSummary' });
export const StamdataTable = StamdataTableSummary.extend({ rows: z.array(z.record(z.string(), z.unknown())).nullable() }).meta({ id: 'StamdataTable' });
export const StamdataQuery = z.object({ peildatum: z.string().optional().meta({ description: 'YYYY-MM-DD; omitted means today (Europe/Amsterdam)' }) });

export const FeatureFlag = z.strictObject({ key: z.string().nullable(), description: z.string().nullable(), enabled: z.boolean() }).meta({ id: 'FeatureFlag' });
export const SetFeatureFlagRequest = z.strictObject({ enabled: z.boolean() }).meta({ id: 'SetFeatureFlagRequest' });
