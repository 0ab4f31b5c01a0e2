import type { IncomingHttpHeaders } from 'node:http';
import { auditEvent } from '@register/contracts';
import { DomainError } from '@register/problem';
import { currentCorrelationId, enqueue } from '@register/service-kit';
import { dueNowByZaakUrl } from '../case-mirror/case-mirror.repository';
import type { Context } from '../context';
import { auditResourceOf, MAX_NOTIFICATION_BYTES, notificationKey, secretMatches } from './notification-rules';
import type { Notificatie } from './notifications.schemas';
import { rememberNotification } from './notifications.repository';

/** decisions §11 order: the secret first (401), then the size (413); the body's shape (400) comes after. */
export function checkDelivery(ctx: Context, headers: IncomingHttpHeaders, parsedBody: unknown): void {
  if (!secretMatches(ctx.config.NOTIFICATIES_AUTH, headers.authorization))
    throw new DomainError('unauthenticated', 'The notification carries no valid Authorization.');
  const declared = Number(headers['content-length']);
  const size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(parsedBody ?? null), 'utf8');
  if (size > MAX_NOTIFICATION_BYTES) throw new DomainError('payload-too-large', 'A notification is at most 64 KiB.');
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
