import type { Kysely } from 'kysely';
import { NotFoundError, validationError } from '@register/problem';
import { isValidDate, todayInAmsterdam, type Clock } from '@register/service-kit';
import type { ReferenceDb } from '../database';
import { findTable, listRows, type StamdataTableRow } from './stamdata.repository';

export interface StamdataTable extends StamdataTableRow {
  rows: Array<Record<string, unknown>>;
}

/**
 * decisions §9: a malformed `peildatum` is 400 on every table; omitted means today (Amsterdam);
 * on a non-temporal table a valid one changes nothing. Unknown table: 404 (checked first).
 */
export async function getTable(db: Kysely<ReferenceDb>, clock: Clock, id: string, peildatum: string | undefined): Promise<StamdataTable> {
  const table = await findTable(db, id);
  if (!table) throw new NotFoundError('stamdata table');
  if (peildatum !== undefined && !isValidDate(peildatum)) {
    throw validationError([{ field: 'peildatum', code: 'invalid_date', detail: 'peildatum must be a real date in the form YYYY-MM-DD.' }]);
  }
  const rows = await listRows(db, id, table.temporal ? (peildatum ?? todayInAmsterdam(clock)) : null);
  return { ...table, rows };
}
