import { sql } from 'kysely';
import { isApplicationId, type ApplicationRow } from '../applications/application-reads';
import type { Db } from '../database';

// The cases feature's own reads: the lists of applications and the owners of listed cases.

/**
 * A row of a list (own applications, werkvoorraad, admin cases): only what a summary shows, never the
 * draft or the submission (which can be large), and the timestamps already as the API writes them
 * (ISO-8601, UTC, milliseconds: what Date#toISOString gives; to_char truncates microseconds as the
 * Date parse does). Formatting in the query saves parsing ~300 timestamps into Dates per page of
 * 100 and serialising them again (the largest allocation of these routes, and so their GC pauses).
 */
export interface ListRow extends Pick<
  ApplicationRow,
  'id' | 'owner' | 'type' | 'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'
> {
  document_ids: string[];
  created_iso: string;
  updated_iso: string;
  submitted_iso: string | null;
  /** The row's place in its list (the ordering timestamp) in PostgreSQL's own microsecond text, for the cursor. */
  key_at: string;
}

const ISO_MS = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
const ISO_US = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
/** Exact, unlike the millisecond columns: a cursor from a rounded timestamp would repeat or skip rows. */
const keyAt = (column: 'created_at' | 'submitted_at') =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', ${ISO_US})`.as('key_at');
const listColumns = [
  'id',
  'owner',
  'type',
  'status_tag',
  'step_index',
  'step_count',
  'referentie',
  'manual',
  'reden',
  'document_ids',
  // Aliases differ from the column names: ORDER BY created_at must keep meaning the column (and its index).
  sql<string>`to_char(created_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('created_iso'),
  sql<string>`to_char(updated_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('updated_iso'),
  sql<string | null>`to_char(submitted_at AT TIME ZONE 'UTC', ${ISO_MS})`.as('submitted_iso'),
] as const;

/** A position in a list: `at` is a `key_at` (or any timestamp text PostgreSQL reads exactly), compared as timestamptz. */
export interface Keyset {
  at: string;
  id: string;
}

/** The owners of the applications with these ids or referenties (a listed case is known by either). */
export async function ownersOf(db: Db, ids: string[], referenties: string[]): Promise<string[]> {
  const valid = ids.filter(isApplicationId);
  if (valid.length === 0 && referenties.length === 0) return [];
  const rows = await db
    .selectFrom('applications')
    .select('owner')
    .where((eb) =>
      eb.or([
        ...(valid.length > 0 ? [eb('id', 'in', valid)] : []),
        ...(referenties.length > 0 ? [eb('referentie', 'in', referenties)] : []),
      ]),
    )
    .execute();
  return rows.map((r) => r.owner);
}

/** The owner's applications, newest first; served by applications_owner_created. */
export async function listByOwner(db: Db, owner: string, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db
    .selectFrom('applications')
    .select([...listColumns, keyAt('created_at')])
    .where('owner', '=', owner);
  if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The work queue, oldest submittedAt first; served by the partial index applications_werkvoorraad. */
export async function listSubmitted(db: Db, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db
    .selectFrom('applications')
    .select([...listColumns, keyAt('submitted_at')])
    .where('status_tag', '=', 'Ingediend');
  if (after) q = q.where(sql<boolean>`(submitted_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('submitted_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

/** Every application, oldest first; served by applications_created. */
export async function listAll(db: Db, limit: number, after: Keyset | null): Promise<ListRow[]> {
  let q = db.selectFrom('applications').select([...listColumns, keyAt('created_at')]);
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}
