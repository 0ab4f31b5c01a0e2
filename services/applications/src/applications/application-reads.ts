import type { Selectable } from 'kysely';
import type { Db } from '../database';
import type { ApplicationsTable } from './applications.table';

/**
 * The reads of one application that several features share (ADR 0253). Only reads live here: each write of
 * `applications` belongs to the feature that makes that change (drafts, submission, assessment, admin-cases).
 */
export type ApplicationRow = Selectable<ApplicationsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are uuids; anything else cannot exist (and must not reach Postgres as a cast error). */
export const isApplicationId = (id: string): boolean => UUID.test(id);

export async function findOwned(db: Db, owner: string, id: string): Promise<ApplicationRow | undefined> {
  if (!isApplicationId(id)) return undefined;
  return db.selectFrom('applications').selectAll().where('id', '=', id).where('owner', '=', owner).executeTakeFirst();
}

export async function findById(db: Db, id: string, lock = false): Promise<ApplicationRow | undefined> {
  if (!isApplicationId(id)) return undefined;
  const q = db.selectFrom('applications').selectAll().where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function findByReferentie(db: Db, referentie: string, lock = false): Promise<ApplicationRow | undefined> {
  const q = db.selectFrom('applications').selectAll().where('referentie', '=', referentie);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}
