import { z } from 'zod';
import { reference } from '@register/contracts';
import { defineOperation, pageQuery, sendCached, todayInAmsterdam } from '@register/service-kit';
import type { Context } from '../context';
import { pageOf } from '../snapshot/page-of';
import { StamdataQuery, StamdataTable, StamdataTableSummary, TableParams } from './stamdata.schemas';

const listStamdataTables = defineOperation({
  rule: reference.routes.stamdataTables,
  operationId: 'listStamdataTables',
  summary: 'List the reference tables',
  description:
    'Every stamdata table with its columns (`type` is `string`, `integer`, `boolean`, `date`, ' +
    '`enum` or `ref:<table>.<column>`) and whether it has valid time. Paged with `limit` (1–1000) ' +
    'and `cursor` like every list; `Link: rel="next"` names the next page while tables remain.',
  query: pageQuery,
  responses: { 200: z.array(StamdataTableSummary) },
  handle: (ctx: Context, { query, req, res }) =>
    query.limit === undefined && query.cursor === undefined
      ? sendCached(req, res, ctx.snapshot.tableSummaries(), 'revalidate')
      : pageOf(ctx.snapshot.tableSummaryList(), (t) => t.id, query, req.originalUrl),
});

const getStamdataTable = defineOperation({
  rule: reference.routes.stamdataTable,
  operationId: 'getStamdataTable',
  summary: 'Read one reference table',
  description:
    'For a temporal table only the rows valid on `peildatum` (inclusive `geldigVanaf`, ' +
    'exclusive `geldigTot`); omitted means today in Europe/Amsterdam. ' +
    'A malformed date is 400 on every table. Answers carry a strong `ETag` and `Cache-Control: ' +
    'private, no-cache`; `If-None-Match` with the current ETag gives 304.',
  params: TableParams,
  query: StamdataQuery,
  responses: { 200: StamdataTable, 304: null },
  handle: (ctx: Context, { params, query, req, res }) =>
    sendCached(req, res, ctx.snapshot.table(params.table, query.peildatum, todayInAmsterdam(ctx.clock)), 'revalidate'),
});

/** Other services read stamdata here (policy question wording, professions). */
const internalStamdataTable = defineOperation({
  internal: { method: 'GET', path: '/internal/stamdata/:table' },
  operationId: 'internalStamdataTable',
  summary: 'Read one reference table (internal)',
  params: TableParams,
  query: StamdataQuery,
  responses: { 200: StamdataTable },
  handle: (ctx: Context, { params, query, req, res }) =>
    sendCached(req, res, ctx.snapshot.table(params.table, query.peildatum, todayInAmsterdam(ctx.clock)), 'no-store'),
});

export const stamdataRoutes = [listStamdataTables, getStamdataTable, internalStamdataTable];
