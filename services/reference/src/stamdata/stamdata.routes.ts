import { z } from 'zod';
import { reference } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { getTable } from './get-table';
import { listTables } from './stamdata.repository';
import { StamdataQuery, StamdataTable, StamdataTableSummary, TableParams } from './stamdata.schemas';

const listStamdataTables = defineOperation({
  rule: reference.routes.stamdataTables,
  operationId: 'listStamdataTables',
  summary: 'List the reference tables',
  description: 'Every stamdata table with its columns (`type` is `string`, `integer`, `boolean`, `date`, `enum` or `ref:<table>.<column>`) and whether it has valid time.',
  responses: { 200: z.array(StamdataTableSummary) },
  handle: async (ctx: Context) => {
    const tables = await listTables(ctx.db);
    return { body: tables.map(({ id, label, columns, temporal }) => ({ id, label, columns, temporal })) };
  },
});

const getStamdataTable = defineOperation({
  rule: reference.routes.stamdataTable,
  operationId: 'getStamdataTable',
  summary: 'Read one reference table',
  description: 'For a temporal table only the rows valid on `peildatum` (inclusive `geldigVanaf`, exclusive `geldigTot`); omitted means today in Europe/Amsterdam. A malformed date is 400 on every table.',
  params: TableParams,
  query: StamdataQuery,
  responses: { 200: StamdataTable },
  handle: async (ctx: Context, { params, query }) => ({ body: await getTable(ctx.db, ctx.clock, params.table, query.peildatum) }),
});

/** Other services read stamdata here (policy question wording, professions). */
const internalStamdataTable = defineOperation({
  internal: { method: 'GET', path: '/internal/stamdata/:table' },
  operationId: 'internalStamdataTable',
  summary: 'Read one reference table (internal)',
  params: TableParams,
  query: StamdataQuery,
  responses: { 200: StamdataTable },
  handle: async (ctx: Context, { params, query }) => ({ body: await getTable(ctx.db, ctx.clock, params.table, query.peildatum) }),
});

export const stamdataRoutes = [listStamdataTables, getStamdataTable, internalStamdataTable];
