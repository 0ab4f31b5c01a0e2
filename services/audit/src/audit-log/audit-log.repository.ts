import { sql, type Kysely, type Selectable } from 'kysely';
import type { AuditDb } from '../database';
import type { AuthzAuditTable } from './audit-log.table';

export type AuditRow = Selectable<AuthzAuditTable>;
/** A listed row with its place in the list: `at` in PostgreSQL's own microsecond text, for the cursor. */
export type AuditListRow = AuditRow & { at_key: string };

export interface AuditFilter {
  action?: string | undefined;
  correlationId?: string | undefined;
  decision?: string | undefined;
  /** Rows at or after this instant. */
  from?: Date | undefined;
  /** Rows before this instant. */
  to?: Date | undefined;
  /** Rows strictly older than this (at, event_id) position, newest first; `at` as an `at_key` (exact). */
  after?: { at: string; eventId: string } | null;
}

/** Exact, unlike a Date (milliseconds): a cursor from a rounded `at` would repeat or skip rows. */
const atKey = sql<string>`to_char(at AT TIME ZONE 'UTC', ${sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')})`.as('at_key');

/** Inserts once per event id: a redelivered or re-published event changes nothing. */
export async function insertAuditRow(db: Kysely<AuditDb>, row: AuditRow): Promise<void> {
  await db
    .insertInto('authz_audit')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}

export async function listAuditRows(db: Kysely<AuditDb>, filter: AuditFilter, limit: number): Promise<AuditListRow[]> {
  let query = db.selectFrom('authz_audit').selectAll().select(atKey);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.correlationId !== undefined) query = query.where('correlation_id', '=', filter.correlationId);
  if (filter.decision !== undefined) query = query.where('decision', '=', filter.decision);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  const after = filter.after;
  if (after) query = query.where(sql<boolean>`(at, event_id) < (${after.at}::timestamptz, ${after.eventId}::uuid)`);
  return query.orderBy('at', 'desc').orderBy('event_id', 'desc').limit(limit).execute();
}
