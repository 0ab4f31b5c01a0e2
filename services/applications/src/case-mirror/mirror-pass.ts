import { auditEvent } from '@register/contracts';
import type { Kysely, Transaction } from 'kysely';
import { SpanKind, backoffMs, enqueue, inSpan, traceContextOf } from '@register/service-kit';
import type { AppDatabase } from '../database';
import {
  claimCases,
  clearDivergence,
  flagDivergence,
  forgetCase,
  loadCases,
  markDiverged,
  markDone,
  postponeCase,
} from './case-mirror.repository';
import { recordHeal } from './case-mirror-operator.repository';
import { mirrorCase, type CaseOutcome, type MirrorContext } from './mirror-case';
import type { MirrorCase } from './mirror-case.types';

/** ADR 0005/0012: the reden of a failed mirror write and the audit actions of a divergence and its healing. */
export const DIVERGENCE = 'zaaksysteem-divergentie';
export const HERSTELD = 'zaaksysteem-hersteld';

/**
 * One pass of the mirror (`pending`) or the reconciler (`diverged`): claim due cases for a lease, work them
 * side by side (each case's steps in order), and settle each outcome in one transaction.
 */
export async function mirrorPass(
  ctx: MirrorContext,
  state: 'pending' | 'diverged',
  limit: number,
  referentie?: string,
): Promise<number> {
  const rows = await claimCases(ctx.db, state, {
    limit,
    leaseMs: ctx.mirror.leaseMs,
    windowMs: ctx.mirror.windowMs,
    ...(referentie ? { referentie } : {}),
  });
  const cases = await loadCases(ctx.db, rows);
  const settled = await Promise.allSettled(cases.map((c) => inCaseTrace(c, async () => workCase(ctx, c))));
  // A database failure leaves the case's lease to run out: it is claimed again, and continues where it stopped.
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return rows.length;
}

/**
 * The mirror's cases side by side without a barrier: a pass claims cases for the free slots and starts them,
 * so one slow case does not hold up the batch it was claimed with. While fewer than half of the slots
 * are free the pass waits for a case to end (claims stay batched: one claim per few cases, not one per case).
 * A case that failed on the database is thrown by the next pass, so the job loop backs off.
 */
export class MirrorWorkers {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { err: unknown } | null = null;

  constructor(
    private readonly ctx: MirrorContext,
    private readonly state: 'pending' | 'diverged',
    readonly concurrency: number,
  ) {}

  /**
   * One pass of the job loop: says `concurrency` while the slots were all taken, so the loop comes back at once.
   * While the service is busy with requests the pass takes one case, after the one before it ended, and says 0:
   * the loop's interval apart (ADR 0273).
   */
  async pass(): Promise<number> {
    this.throwFailure();
    if (this.ctx.mirror.busy()) {
      while (this.inFlight.size > 0) await Promise.race(this.inFlight);
      this.throwFailure();
      await this.claimAndStart(1);
      return 0;
    }
    const minClaim = Math.ceil(this.concurrency / 2);
    while (this.concurrency - this.inFlight.size < minClaim) await Promise.race(this.inFlight);
    this.throwFailure();
    const free = this.concurrency - this.inFlight.size;
    const claimed = await this.claimAndStart(free);
    return claimed === free ? this.concurrency : claimed;
  }

  /** Claims up to `limit` due cases and starts each without waiting for it; how many it claimed. */
  private async claimAndStart(limit: number): Promise<number> {
    const rows = await claimCases(this.ctx.db, this.state, {
      limit,
      leaseMs: this.ctx.mirror.leaseMs,
      windowMs: this.ctx.mirror.windowMs,
    });
    for (const c of await loadCases(this.ctx.db, rows)) {
      const work: Promise<void> = inCaseTrace(c, async () => workCase(this.ctx, c))
        .catch((err: unknown) => {
          this.failure ??= { err };
        })
        .finally(() => this.inFlight.delete(work));
      this.inFlight.add(work);
    }
    return rows.length;
  }

  /** Resolves once every case under way has ended (the job's stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private throwFailure(): void {
    const failure = this.failure;
    this.failure = null;
    // A database failure leaves the case's lease to run out: it is claimed again, and continues where it stopped.
    if (failure) throw failure.err;
  }
}

/** A case's work in the trace of the request that gave it (issue 14): its ZGW calls and audit rows continue it. */
function inCaseTrace<T>(c: MirrorCase, fn: () => Promise<T>): Promise<T> {
  return inSpan('mirror case', SpanKind.INTERNAL, traceContextOf(c.traceparent), fn);
}

/** Works one case now, if it is due and nobody holds it, without waiting for the loop; the loop is the net. */
export function mirrorNow(ctx: MirrorContext, referentie: string): void {
  mirrorPass(ctx, 'pending', 1, referentie).catch((err: unknown) =>
    ctx.mirror.logger.warn({ err, referentie }, 'immediate mirror attempt failed; the mirror retries'),
  );
}

const resourceOf = (c: MirrorCase) => `case/${c.referentie}`;

async function workCase(ctx: MirrorContext, c: MirrorCase): Promise<void> {
  const start = new Date();
  await settle(ctx, c, await mirrorCase(ctx, c), start);
}

/**
 * A pass that ended (done, healed or diverged) processed the owner's data: one record, in the transaction that
 * settles it (ADR 0182). A postponed pass is not one: the pass that ends the case logs the mirroring. A case whose
 * application is gone (only the zaak's delete owed) names no owner any more.
 */
async function logPass(
  ctx: MirrorContext,
  trx: Kysely<AppDatabase> | Transaction<AppDatabase>,
  c: MirrorCase,
  start: Date,
  error?: Error,
): Promise<void> {
  if (!c.application) return;
  await ctx.processing.write(trx, {
    activity: 'zaakspiegeling',
    name: c.state === 'diverged' ? 'case-mirror reconcile' : 'case-mirror pass',
    door: 'systeem',
    start,
    end: new Date(),
    subjects: [c.application.owner],
    ...(error ? { error } : {}),
  });
}

async function settle(ctx: MirrorContext, c: MirrorCase, outcome: CaseOutcome, start: Date): Promise<void> {
  const { db } = ctx;
  const { logger } = ctx.mirror;
  if (outcome.kind === 'postponed') {
    await postponeCase(db, c.referentie, backoffMs(c.attempts, 1000, 60_000), outcome.detail);
    logger.warn({ referentie: c.referentie, detail: outcome.detail }, 'case mirror postponed');
    return;
  }
  if (outcome.kind === 'diverged') {
    await db.transaction().execute(async (trx) => {
      await markDiverged(trx, c.referentie, {
        correlationId: outcome.correlationId,
        detail: `${outcome.step}: ${outcome.detail}`,
        reconcileMs: ctx.mirror.reconcileMs,
      });
      // The step only: a zaaksysteem's own detail may quote what was sent.
      await logPass(ctx, trx, c, start, new Error(`${outcome.step} refused by the zaaksysteem`));
      // Exactly one audit row per divergence: only the case that was not diverged yet is flagged.
      if (c.state === 'diverged') return;
      if (c.applicationId) await flagDivergence(trx, c.applicationId, DIVERGENCE);
      await enqueue(
        trx,
        auditEvent('applications'),
        { action: DIVERGENCE, resource: resourceOf(c), decision: 'flagged', role: 'system' },
        outcome.correlationId,
      );
    });
    logger.warn(
      { referentie: c.referentie, step: outcome.step, detail: outcome.detail, reconciled: c.state === 'diverged' },
      'zaaksysteem diverged',
    );
    return;
  }
  if (c.state !== 'diverged') {
    // Nothing to heal: the case's end and its processing record (a crash before the commit leaves the lease to run
    // out).
    await db.transaction().execute(async (trx) => {
      if (c.deleteRequested) await forgetCase(trx, c.referentie);
      else await markDone(trx, c);
      await logPass(ctx, trx, c, start);
    });
    return;
  }
  const healed = await db.transaction().execute(async (trx) => {
    if (c.deleteRequested) await forgetCase(trx, c.referentie);
    else if (!(await markDone(trx, c))) return false;
    if (c.applicationId && !c.deleteRequested) await clearDivergence(trx, c.applicationId, DIVERGENCE);
    await recordHeal(trx, c.referentie);
    await logPass(ctx, trx, c, start);
    await enqueue(
      trx,
      auditEvent('applications'),
      { action: HERSTELD, resource: resourceOf(c), decision: 'allow', role: 'system' },
      c.correlation.diverged,
    );
    return true;
  });
  if (healed) logger.info({ referentie: c.referentie }, 'zaaksysteem divergence healed');
}
