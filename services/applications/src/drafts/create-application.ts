import { randomUUID } from 'node:crypto';
import { DomainError } from '@register/problem';
import type { ApplicationDetail, ApplicationType } from '../cases/application.schemas';
import { toDetail } from '../cases/application-views';
import type { Context } from '../context';
import { herregistratieFor } from '../registration/eligibility';
import { recordProcessingIn } from '@register/service-kit';
import { insertApplication } from './drafts.repository';

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/** ADR 0005: one Concept per type; a herregistratie only when the dashboard says eligible. */
export async function createApplication(
  ctx: Context,
  owner: string,
  type: ApplicationType,
): Promise<ApplicationDetail> {
  if (type === 'herregistratie') {
    const { decisions } = await herregistratieFor(ctx, owner);
    if (!decisions.eligibleForHerregistratie)
      throw new DomainError('conflict', `No herregistratie possible now: ${decisions.herregistratieReason}.`);
  }
  try {
    // The partial unique index holds the one-Concept rule even when two creates race.
    const row = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await insertApplication(trx, { id: randomUUID(), owner, type, now: ctx.clock.now() });
      await recordProcessingIn(trx);
      return inserted;
    });
    return toDetail(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('conflict', `There is already a ${type} application in Concept.`);
    throw err;
  }
}
