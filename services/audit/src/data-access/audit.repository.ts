import type { Kysely, Selectable } from 'kysely';
import type { AuditDb, AuthzAuditTable } from './audit.tables';

export type AuditRow = Selectable<AuthzAuditTable>;

export interface AuditFilter {
  action?: string | undefined;
  correlationId?: string | undefined;
  /** Rows strictly older than this (at, event_id) position, newest first. */
  after?: { at: Date; eventId: string } | null;
}

/** Inserts once per event id: a redelivered or re-published event changes nothing. */
export async function insertAuditRow(db: Kysely<AuditDb>, row: AuditRow): Promise<void> {
  await db.insertInto('authz_audit').values(row).onConflict((oc) => oc.column('event_id').doNothing()).execute();
}

export async function listAuditRows(db: Kysely<AuditDb>, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom('authz_audit').selectAll();
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.correlationId !== undefined) query = query.where('correlation_id', '=', filter.correlationId);
  const after = filter.after;
  if (after) query = query.where((eb) => eb(eb.refTuple('at', 'event_id'), '<', eb.tuple(after.at, after.eventId)));
  return query.orderBy('at', 'desc').orderBy('event_id', 'desc').limit(limit).execute();
}
