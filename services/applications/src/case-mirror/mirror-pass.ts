import { auditEvent } from '@register/contracts';
import { backoffMs, enqueue } from '@register/service-kit';
import { claimCases, clearDivergence, flagDivergence, forgetCase, loadCases, markDiverged, markDone, postponeCase } from './case-mirror.repository';
import { mirrorCase, type CaseOutcome, type MirrorDeps } from './mirror-case';
import type { MirrorCase } from './mirror-case.types';

/** decisions §5/§12: the reden of a failed mirror write and the audit actions of a divergence and its healing. */
export const DIVERGENCE = 'zaaksysteem-divergentie';
export const HERSTELD = 'zaaksysteem-hersteld';

/**
 * One pass of the mirror (`pending`) or the reconciler (`diverged`): claim due cases for a lease, work them
 * side by side (each case's steps in order), and settle each outcome in one transaction.
 */
export async function mirrorPass(deps: MirrorDeps, state: 'pending' | 'diverged', limit: number, referentie?: string): Promise<number> {
  const rows = await claimCases(deps.db, state, { limit, leaseMs: deps.leaseMs, windowMs: deps.windowMs, ...(referentie ? { referentie } : {}) });
  const cases = await loadCases(deps.db, rows);
  const settled = await Promise.allSettled(cases.map(async (c) => settle(deps, c, await mirrorCase(deps, c))));
  // A database failure leaves the case's lease to run out: it is claimed again, and continues where it stopped.
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return rows.length;
}

/** Works one case now, if it is due and nobody holds it, without waiting for the loop; the loop is the net. */
export function mirrorNow(deps: MirrorDeps, referentie: string): void {
  mirrorPass(deps, 'pending', 1, referentie).catch((err: unknown) => deps.logger.warn({ err, referentie }, 'immediate mirror attempt failed; the mirror retries'));
}

const resourceOf = (c: MirrorCase) => `case/${c.referentie}`;

async function settle(deps: MirrorDeps, c: MirrorCase, outcome: CaseOutcome): Promise<void> {
  const { db, logger } = deps;
  if (outcome.kind === 'postponed') {
    await postponeCase(db, c.referentie, backoffMs(c.attempts, 1000, 60_000), outcome.detail);
    logger.warn({ referentie: c.referentie, detail: outcome.detail }, 'case mirror postponed');
    return;
  }
  if (outcome.kind === 'diverged') {
    await db.transaction().execute(async (trx) => {
      await markDiverged(trx, c.referentie, { correlationId: outcome.correlationId, detail: `${outcome.step}: ${outcome.detail}`, reconcileMs: deps.reconcileMs });
      // Exactly one audit row per divergence: only the case that was not diverged yet is flagged.
      if (c.state === 'diverged') return;
      if (c.applicationId) await flagDivergence(trx, c.applicationId, DIVERGENCE);
      await enqueue(trx, auditEvent('applications'), { action: DIVERGENCE, resource: resourceOf(c), decision: 'flagged', role: 'system' }, outcome.correlationId);
    });
    logger.warn({ referentie: c.referentie, step: outcome.step, detail: outcome.detail, reconciled: c.state === 'diverged' }, 'zaaksysteem diverged');
    return;
  }
  const healed = await db.transaction().execute(async (trx) => {
    if (c.deleteRequested) await forgetCase(trx, c.referentie);
    else if (!(await markDone(trx, c))) return false;
    if (c.state !== 'diverged') return false;
    if (c.applicationId && !c.deleteRequested) await clearDivergence(trx, c.applicationId, DIVERGENCE);
    await enqueue(trx, auditEvent('applications'), { action: HERSTELD, resource: resourceOf(c), decision: 'allow', role: 'system' }, c.correlation.diverged);
    return true;
  });
  if (healed) logger.info({ referentie: c.referentie }, 'zaaksysteem divergence healed');
}
