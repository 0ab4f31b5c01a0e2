import type { ColumnType } from 'kysely';

/** Applications an admin deleted: their documents are gone and a late link to them is refused. */
export interface DeletedApplicationTable {
  application_id: string;
  deleted_at: ColumnType<Date, Date | undefined, never>;
}
