import { z } from 'zod';
import type { ConsumeOutcome } from '@register/service-kit';
import { deleteApplicationDocuments, lockApplication } from '../data-access/documents.repository';
import type { ManageDeps } from './manage-documents';

const applicationDeleted = z.object({ type: z.literal('application.deleted'), data: z.object({ applicationId: z.string().min(1).max(64) }) });

/**
 * An admin deleted an application (case): its documents are personal data without a purpose now, so their
 * rows and bytes go, and a link to that application that arrives later is refused. Idempotent: a
 * redelivery finds nothing more to delete. Bytes that cannot be removed now are orphans for the sweeper.
 */
export async function onApplicationDeleted(deps: ManageDeps, payload: unknown): Promise<ConsumeOutcome> {
  const event = applicationDeleted.safeParse(payload);
  if (!event.success) return 'malformed';
  const { applicationId } = event.data.data;
  const objectKeys = await deps.db.transaction().execute(async (trx) => {
    await lockApplication(trx, applicationId);
    return deleteApplicationDocuments(trx, applicationId);
  });
  for (const key of objectKeys) {
    await deps.storage.remove(key).catch((err: unknown) => deps.logger.warn({ err, objectKey: key }, 'object not removed; left for the sweeper'));
  }
  if (objectKeys.length > 0) deps.logger.info({ applicationId, documents: objectKeys.length }, 'documents of a deleted application removed');
  return 'handled';
}
