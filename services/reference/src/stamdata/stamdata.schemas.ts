import { z } from 'zod';

export const StamdataColumn = z
  .strictObject({
    name: z.string().nullable(),
    type: z.string().nullable(),
    isKey: z.boolean(),
    options: z.array(z.string()).nullable(),
  })
  .meta({ id: 'StamdataColumn' });
export const StamdataTableSummary = z
  .strictObject({
    id: z.string().nullable(),
    label: z.string().nullable(),
    columns: z.array(StamdataColumn).nullable(),
    temporal: z.boolean(),
  })
  .meta({ id: 'StamdataTableSummary' });
export const StamdataTable = StamdataTableSummary.extend({
  rows: z.array(z.record(z.string(), z.unknown())).nullable(),
}).meta({ id: 'StamdataTable' });

export const TableParams = z.object({ table: z.string().min(1).max(64).meta({ example: 'opleidingen' }) });
/** Checked as a real date by the use case (400 on every table, after the 404 of an unknown one). */
export const StamdataQuery = z.object({
  peildatum: z
    .string()
    .max(10)
    .optional()
    .meta({ description: 'YYYY-MM-DD; omitted means today (Europe/Amsterdam)', format: 'date', example: '2020-01-01' }),
});
