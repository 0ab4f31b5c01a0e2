import { auditRole, type Identity } from '@register/authz';
import { applications, auditEvent } from '@register/contracts';
import { NotFoundError } from '@register/problem';
import { currentCorrelationId, enqueue, recordProcessingIn } from '@register/service-kit';
import { oweDelete } from '../case-mirror/case-mirror.repository';
import { isMirroring } from '../case-mirror/mirror-case';
import { mirrorNow } from '../case-mirror/mirror-pass';
import { findById } from '../applications/application-reads';
import type { Context } from '../context';
import { deleteApplication } from './admin-cases.repository';

/**
 * Admin delete: removes the case (and its pending link job), tells the audit log and tells the documents
 * service (which removes the case's documents on application.deleted), in one transaction. With mirroring on
 * the zaak's delete is owed in the same transaction and tried at once, without holding up the answer.
 */
export async function adminDeleteCase(ctx: Context, identity: Identity | null, caseId: string): Promise<void> {
  const ref = await ctx.cases.resolveAny(caseId);
  if (!ref) throw new NotFoundError('case');
  const correlationId = currentCorrelationId();
  const zaakOwed = ctx.mirror !== null && ref.referentie !== null;
  await ctx.db.transaction().execute(async (trx) => {
    if (ref.applicationId) {
      const row = await findById(trx, ref.applicationId, true);
      if (!row || !(await deleteApplication(trx, ref.applicationId))) throw new NotFoundError('case');
      await recordProcessingIn(trx, row.owner);
    }
    await enqueue(
      trx,
      auditEvent('applications'),
      { action: 'case:admin-delete', resource: 'case', decision: 'allow', role: auditRole(identity) },
      correlationId,
    );
    if (ref.applicationId)
      await enqueue(trx, applications.events.deleted, { applicationId: ref.applicationId }, correlationId);
    if (zaakOwed) await oweDelete(trx, { referentie: ref.referentie!, correlationId });
  });
  if (zaakOwed && isMirroring(ctx)) mirrorNow(ctx, ref.referentie!);
}
