import { auditRole, type Identity } from '@register/authz';
import { applications, auditEvent } from '@register/contracts';
import { NotFoundError } from '@register/problem';
import { currentCorrelationId, enqueue } from '@register/service-kit';
import { deleteApplication } from '../cases/applications.repository';
import type { Context } from '../context';

/**
 * Admin delete: removes the case (and its pending link job), tells the audit log and tells the documents
 * service (which removes the case's documents on application.deleted), in one transaction.
 */
export async function adminDeleteCase(ctx: Context, identity: Identity | null, caseId: string): Promise<void> {
  const ref = await ctx.cases.resolveAny(caseId);
  if (!ref) throw new NotFoundError('case');
  const correlationId = currentCorrelationId();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteApplication(trx, ref.applicationId))) throw new NotFoundError('case');
    await enqueue(trx, auditEvent('applications'), { action: 'case:admin-delete', resource: 'case', decision: 'allow', role: auditRole(identity) }, correlationId);
    await enqueue(trx, applications.events.deleted, { applicationId: ref.applicationId }, correlationId);
  });
}
