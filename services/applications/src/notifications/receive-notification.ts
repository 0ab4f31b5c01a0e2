import type { IncomingHttpHeaders } from 'node:http';
import { auditEvent } from '@register/contracts';
import { DomainError } from '@register/problem';
import { currentCorrelationId, enqueue } from '@register/service-kit';
import { dueNowByZaakUrl } from '../case-mirror/case-mirror.repository';
import type { Context } from '../context';
import { auditResourceOf, notificationKey, secretMatches } from './notification-rules';
import type { Notificatie } from './notifications.schemas';
import { rememberNotification } from './notifications.repository';

/** ADR 0011 order: the secret first (401), before a byte of the body is read; size and shape come after. */
export function checkDelivery(ctx: Context, headers: IncomingHttpHeaders): void {
  if (!secretMatches(ctx.config.NOTIFICATIES_AUTH, headers.authorization))
    throw new DomainError('unauthenticated', 'The notification carries no valid Authorization.');
}

/**
 * An accepted notification: one `notificatie-ontvangen` audit row, also for `kanaal: "test"`, and none for a
 * redelivery of the same one. One about a zaak of ours that diverged makes the reconciler look at it now.
 */
export async function receiveNotification(ctx: Context, n: Notificatie): Promise<void> {
  const fresh = await ctx.db.transaction().execute(async (trx) => {
    if (!(await rememberNotification(trx, notificationKey(n)))) return false;
    await enqueue(
      trx,
      auditEvent('applications'),
      { action: 'notificatie-ontvangen', resource: auditResourceOf(n), decision: 'accepted', role: 'system' },
      currentCorrelationId(),
    );
    return true;
  });
  if (fresh && ctx.mirror) await dueNowByZaakUrl(ctx.db, n.hoofdObject, ctx.mirror.leaseMs);
}
