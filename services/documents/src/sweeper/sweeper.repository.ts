import type { Kysely } from 'kysely';
import type { DocumentsDb } from '../database';

/** Which of these object keys still belong to a document (the sweeper keeps those). */
export async function knownObjectKeys(db: Kysely<DocumentsDb>, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('document').select('object_key').where('object_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.object_key));
}
