import { backoffMs } from '@register/service-kit';
import type { Context } from '../context';
import { claimLinkJobs, completeJob, flagManual, postponeJob, type LinkJobWork } from './link-jobs.repository';

export const LINK_FAILED_REDEN = 'documenten-niet-gekoppeld';
/** How long a claimed job stays invisible to other claimers: longer than one link call. */
export const LEASE_MS = 30_000;
/**
 * Retries of an unreachable documents service back off from 1 s to 5 s: each retry during an outage counts, and a
 * higher ceiling leaves documents unlinked long after the service is back (ADR 0059).
 */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 5_000;

/**
 * The first attempt, right after a submit commits (ADR 0059), on the job the submit wrote already claimed (so the
 * loop leaves it alone and the answer comes after the link). A failure leaves the job for the loop; the submit
 * answers 200 either way, as it is recorded.
 */
export async function linkNow(ctx: Context, job: LinkJobWork): Promise<void> {
  try {
    await processJob(ctx, job);
  } catch (err) {
    ctx.logger.warn({ err, applicationId: job.application_id }, 'inline document link failed; the link job retries');
  }
}

/** One pass of the loop: claim up to `limit` due jobs and work them; returns how many it took. */
export async function linkDueJobs(ctx: Context, limit: number): Promise<number> {
  const jobs = await claimLinkJobs(ctx.db, { limit, leaseMs: LEASE_MS });
  for (const job of jobs) await processJob(ctx, job);
  return jobs.length;
}

// The link call is idempotent at the documents service, so a repeat after a crash or an expired lease does no harm.
async function processJob(ctx: Context, job: LinkJobWork): Promise<void> {
  const { db, documents, logger } = ctx;
  const start = new Date();
  const outcome = await documents.link(job.application_id, job.owner, job.documents);
  if (outcome.kind === 'linked') {
    // Linking the practitioner's documents to their application is the system's processing of them (ADR 0182).
    await db.transaction().execute(async (trx) => {
      await completeJob(trx, job.application_id);
      const step = { activity: 'aanvragen', name: 'applications link documents', door: 'systeem' } as const;
      await ctx.processing.write(trx, { ...step, start, end: new Date(), subjects: [job.owner] });
    });
  } else if (outcome.kind === 'rejected') {
    // Permanent (a document was deleted or taken meanwhile): a person has to look at it; stop retrying.
    await db.transaction().execute(async (trx) => {
      await flagManual(trx, job.application_id, LINK_FAILED_REDEN);
      await completeJob(trx, job.application_id);
    });
    logger.warn(
      { applicationId: job.application_id },
      'documents could not be linked; application flagged for manual handling',
    );
  } else {
    const delay = backoffMs(job.attempts, RETRY_BASE_MS, RETRY_MAX_MS);
    await postponeJob(db, job.application_id, delay, outcome.detail);
    logger.warn(
      { applicationId: job.application_id, attempts: job.attempts, backoffMs: delay },
      'documents service unavailable; link retried later',
    );
  }
}
