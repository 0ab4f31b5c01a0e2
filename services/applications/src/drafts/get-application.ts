import { NotFoundError } from '@register/problem';
import { findOwned, type ApplicationRow } from '../applications/application-reads';
import type { Context } from '../context';

/** The caller's own application, or a bare 404 (also for another owner's, and for an id that is no uuid). */
export async function requireOwned(ctx: Context, owner: string, id: string): Promise<ApplicationRow> {
  const row = await findOwned(ctx.db, owner, id);
  if (!row) throw new NotFoundError('application');
  return row;
}
