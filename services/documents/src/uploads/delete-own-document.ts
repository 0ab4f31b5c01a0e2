import { recordProcessingIn } from '@register/service-kit';
import { DomainError, NotFoundError } from '@register/problem';
import type { Context } from '../context';
import { isDocumentId } from './document';
import { deleteDocument, findDocumentForUpdate } from './documents.repository';
import { removeOrLeaveToSweeper } from './object-storage';

/** Owner delete: someone else's (or an unknown) document is a 404, a linked one 409. */
export async function deleteOwnDocument(ctx: Context, owner: string, documentId: string): Promise<void> {
  if (!isDocumentId(documentId)) throw new NotFoundError('document');
  const objectKey = await ctx.db.transaction().execute(async (trx) => {
    const row = await findDocumentForUpdate(trx, documentId);
    if (!row || row.owner !== owner) throw new NotFoundError('document');
    if (row.linked_application_id !== null)
      throw new DomainError(
        'conflict',
        'The document is linked to a submitted application and can no longer be deleted.',
      );
    await deleteDocument(trx, documentId);
    await recordProcessingIn(trx);
    return row.object_key;
  });
  await removeOrLeaveToSweeper(ctx, objectKey);
}
