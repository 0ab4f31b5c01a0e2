import type { Context } from '../context';
import { removeOrLeaveToSweeper } from '../uploads/object-storage';
import { deleteApplicationDocuments, lockApplication } from './links.repository';

/**
 * An admin deleted an application (case): its documents are personal data without a purpose now, so their
 * rows and bytes go, and a link to that application that arrives later is refused. Idempotent: a
 * redelivery finds nothing more to delete. Bytes that cannot be removed now are orphans for the sweeper.
 */
export async function deleteApplicationDocumentsOf(ctx: Context, applicationId: string): Promise<void> {
  const start = new Date();
  const objectKeys = await ctx.db.transaction().execute(async (trx) => {
    await lockApplication(trx, applicationId);
    const removed = await deleteApplicationDocuments(trx, applicationId);
    // Removing a practitioner's documents with their case is the system's processing of their data (ADR 0182).
    const subjects = removed.map((d) => d.owner);
    if (subjects.length > 0) {
      const step = {
        activity: 'beheer',
        name: 'documents remove documents of a deleted case',
        door: 'systeem',
      } as const;
      await ctx.processing.write(trx, { ...step, start, end: new Date(), subjects });
    }
    return removed.map((d) => d.objectKey);
  });
  for (const key of objectKeys) await removeOrLeaveToSweeper(ctx, key);
  if (objectKeys.length > 0)
    ctx.logger.info({ applicationId, documents: objectKeys.length }, 'documents of a deleted application removed');
}
