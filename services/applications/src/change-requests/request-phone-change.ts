import { randomUUID } from 'node:crypto';
import { applications } from '@register/contracts';
import { currentCorrelationId, enqueue, recordProcessingIn } from '@register/service-kit';
import type { Context } from '../context';
import { referentiePrefix } from '../submission/referentie';
import { insertChangeRequest, nextWijzigingReferentie } from './change-requests.repository';
import { normalisePhone } from './phone';

/** Stores the normalised number with a WV-<year>-<6 digits> referentie; the event carries no number. */
export async function requestPhoneChange(
  ctx: Context,
  owner: string,
  telefoon: string | null,
): Promise<{ referentie: string }> {
  const normalised = normalisePhone(telefoon);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const referentie = await nextWijzigingReferentie(trx, referentiePrefix('WV', now));
    await insertChangeRequest(trx, { id: randomUUID(), referentie, owner, telefoon: normalised, now });
    await enqueue(
      trx,
      applications.events.changeRequested,
      { referentie, kind: 'telefoon', requestedAt: now.toISOString() },
      currentCorrelationId(),
    );
    await recordProcessingIn(trx);
    return { referentie };
  });
}
