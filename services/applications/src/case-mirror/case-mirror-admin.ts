import { z } from 'zod';
import { auditRole, type Identity } from '@register/authz';
import { auditEvent } from '@register/contracts';
import { DomainError, NotFoundError } from '@register/problem';
import { currentCorrelationId, decodeCursor, encodeCursor, enqueue, recordProcessingIn } from '@register/service-kit';
import { findByReferentie } from '../applications/application-reads';
import type { Context } from '../context';
import { SYSTEM } from './zgw';
import { listOwedCases, makeDueNow, mirrorCounts, type OwedCaseRow } from './case-mirror-operator.repository';
import type { CaseMirrorOverview, CaseMirrorStatus, MirrorCaseView } from './case-mirror-admin.schemas';
import { isMirroring } from './mirror-case';
import { mirrorPass } from './mirror-pass';

/** The audit action of an operator's retry (ADR 0122). */
export const RETRY = 'zaaksysteem-retry';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** Runs of eight or more digits may be a citizen, register or phone number: an operator never needs them. */
const masked = (text: string | null) => text?.replace(/\d{8,}/g, (d) => '*'.repeat(d.length)) ?? null;

function toView(row: OwedCaseRow): MirrorCaseView {
  return {
    referentie: row.referentie,
    state: row.state === 'pending' ? 'owed' : 'diverged',
    step: row.step,
    attempts: row.attempts,
    lastError: masked(row.last_error),
    divergedAt: iso(row.diverged_at),
    nextAttemptAt: iso(row.next_attempt_at),
    pastWindow: row.past_window,
  };
}

/** The counts and one page of the owed and diverged cases; mirroring off: nothing. */
export async function caseMirrorOverview(
  ctx: Context,
  page: { limit?: number | undefined; cursor?: string | undefined },
): Promise<{ overview: CaseMirrorOverview; nextCursor: string | null }> {
  if (!ctx.mirror)
    return {
      overview: { counts: { owed: 0, diverged: 0, pastWindow: 0, healedLast24h: 0 }, cases: [] },
      nextCursor: null,
    };
  const after = decodeCursor(page.cursor, z.string().min(1).max(64));
  const limit = page.limit ?? 1000;
  const windowMs = ctx.mirror.windowMs;
  const [counts, rows] = await Promise.all([
    mirrorCounts(ctx.db, windowMs),
    listOwedCases(ctx.db, { after, limit: limit + 1, windowMs }),
  ]);
  const cases = rows.slice(0, limit);
  const last = cases[cases.length - 1];
  return {
    overview: { counts, cases: cases.map(toView) },
    nextCursor: rows.length > limit && last ? encodeCursor(last.referentie) : null,
  };
}

/**
 * An operator's retry: the case is due now from its last completed step (also past the reconciler's window), with
 * one audit row in the same transaction; the attempt itself starts at once, without holding up the answer.
 */
export async function retryCaseMirror(ctx: Context, identity: Identity | null, referentie: string): Promise<void> {
  if (!isMirroring(ctx)) {
    const known = await ctx.db
      .selectFrom('applications')
      .select('id')
      .where('referentie', '=', referentie)
      .executeTakeFirst();
    if (!known) throw new NotFoundError('case');
    throw new DomainError('conflict', 'Mirroring is off: nothing is owed to the zaaksysteem.');
  }
  const correlationId = currentCorrelationId();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const result = await makeDueNow(trx, referentie, { leaseMs: ctx.mirror.leaseMs, windowMs: ctx.mirror.windowMs });
    if (result.kind !== 'retried') return result;
    await enqueue(
      trx,
      auditEvent('applications'),
      { action: RETRY, resource: `case/${referentie}`, decision: 'allow', role: auditRole(identity) || 'none' },
      correlationId,
    );
    await recordProcessingIn(trx, (await findByReferentie(trx, referentie))?.owner);
    return result;
  });
  if (outcome.kind === 'unknown') throw new NotFoundError('case');
  if (outcome.kind === 'not-owed')
    throw new DomainError('conflict', 'Nothing is owed to the zaaksysteem for this case.');
  mirrorPass(ctx, outcome.state, 1, referentie).catch((err: unknown) =>
    ctx.mirror.logger.warn({ err, referentie }, 'retry attempt failed; the mirror or reconciler tries again'),
  );
}

/** The mirror as the system status shows it: is the zaaksysteem answering, and what waits. */
export async function caseMirrorStatus(ctx: Context): Promise<CaseMirrorStatus> {
  const mirror = ctx.mirror;
  if (!mirror) return { enabled: false, zaaksysteem: 'not-configured', backlog: 0, diverged: 0, pastWindow: 0 };
  const [answer, counts] = await Promise.all([
    mirror.zgw.call('GET', mirror.target.zaaktypeUrl, SYSTEM),
    mirrorCounts(ctx.db, mirror.windowMs),
  ]);
  const ok = answer.kind === 'http' && answer.status < 500;
  return {
    enabled: true,
    zaaksysteem: ok ? 'ok' : 'unavailable',
    backlog: counts.owed,
    diverged: counts.diverged,
    pastWindow: counts.pastWindow,
  };
}
