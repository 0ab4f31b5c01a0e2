import { DomainError, NotFoundError } from '@register/problem';
import { recordProcessingIn } from '@register/service-kit';
import { deleteApplication as deleteRow, findById, findOwned } from '../cases/applications.repository';
import type { Context } from '../context';

/** Only a Concept can be deleted (409 otherwise). */
export async function deleteApplication(ctx: Context, owner: string, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findOwned(trx, owner, id);
    if (!row) throw new NotFoundError('application');
    const locked = await findById(trx, id, true);
    if (locked?.status_tag !== 'Concept')
      throw new DomainError('conflict', 'Only a Concept application can be deleted.');
    await deleteRow(trx, id);
    await recordProcessingIn(trx);
  });
}
