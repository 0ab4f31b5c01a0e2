import type { Context } from '../context';
import { removeOrLeaveToSweeper } from '../uploads/object-storage';
import { deleteApplicationDocuments, lockApplication } from './links.repository';

/**
 * An admin deleted an application (case): its documents are personal data without a purpose now, so their
 * rows and bytes go, and a link to that application that arrives later is refused. Idempotent: a
 * redelivery finds nothing more to delete. Bytes that cannot be removed now are orphans for the sweeper.
 */
export async function deleteApplicationDocumentsOf(
  deps: Pick<Context, 'db' | 'storage' | 'logger'>,
  applicationId: string,
): Promise<void> {
  const objectKeys = await deps.db.transaction().execute(async (trx) => {
    await lockApplication(trx, applicationId);
    return deleteApplicationDocuments(trx, applicationId);
  });
  for (const key of objectKeys) await removeOrLeaveToSweeper(deps, key);
  if (objectKeys.length > 0)
    deps.logger.info({ applicationId, documents: objectKeys.length }, 'documents of a deleted application removed');
}
