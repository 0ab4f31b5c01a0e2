import { DomainError, NotFoundError } from '@register/problem';
import { recordProcessingIn } from '@register/service-kit';
import { findById, findOwned } from '../applications/application-reads';
import type { Context } from '../context';
import { deleteConcept } from './drafts.repository';

/** Only a Concept can be deleted (409 otherwise). */
export async function deleteApplication(ctx: Context, owner: string, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findOwned(trx, owner, id);
    if (!row) throw new NotFoundError('application');
    const locked = await findById(trx, id, true);
    if (locked?.status_tag !== 'Concept')
      throw new DomainError('conflict', 'Only a Concept application can be deleted.');
    await deleteConcept(trx, id);
    await recordProcessingIn(trx);
  });
}
