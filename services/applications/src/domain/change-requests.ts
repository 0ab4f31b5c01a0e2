import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SUBJECTS, currentCorrelationId, enqueueEvent } from '@register/service-kit';
import type { AppDatabase } from '../data-access/database';
import { nextReferentie } from '../data-access/applications.repository';
import { yearAt, type Clock } from './clock';
import { normalisePhone } from './phone';

/** Stores the normalised number with a WV-<year>-<6 digits> referentie; the event carries no number. */
export async function requestPhoneChange(deps: { db: Kysely<AppDatabase>; clock: Clock }, owner: string, telefoon: unknown): Promise<{ referentie: string }> {
  const normalised = normalisePhone(telefoon);
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const referentie = await nextReferentie(trx, 'WV', yearAt(now));
    await trx.insertInto('change_requests').values({ id: randomUUID(), referentie, owner, telefoon: normalised, created_at: now }).execute();
    await enqueueEvent(trx, SUBJECTS.changeRequested, 'change-request.created', { referentie, kind: 'telefoon', requestedAt: now.toISOString() }, currentCorrelationId());
    return { referentie };
  });
}
