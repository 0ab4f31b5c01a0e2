import { auditEvent } from '@register/contracts';
import { auditRole, type Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { enqueue, recordProcessingIn } from '@register/service-kit';
import type { Context } from '../context';
import { isDocumentId } from '../uploads/document';
import { deleteDocument, findDocumentForUpdate } from '../uploads/documents.repository';
import { removeOrLeaveToSweeper } from '../uploads/object-storage';

/** Admin delete: any document, also a linked one, with an audit event in the same transaction. */
export async function adminDeleteDocument(
  ctx: Context,
  identity: Identity,
  documentId: string,
  correlationId: string | null,
): Promise<void> {
  if (!isDocumentId(documentId)) throw new NotFoundError('document');
  const objectKey = await ctx.db.transaction().execute(async (trx) => {
    const row = await findDocumentForUpdate(trx, documentId);
    if (!row) throw new NotFoundError('document');
    await deleteDocument(trx, documentId);
    await enqueue(
      trx,
      auditEvent('documents'),
      {
        action: 'document:admin-delete',
        resource: `document/${documentId}`,
        decision: 'allow',
        role: auditRole(identity),
      },
      correlationId,
    );
    await recordProcessingIn(trx, row.owner);
    return row.object_key;
  });
  await removeOrLeaveToSweeper(ctx, objectKey);
}
