import type { Kysely } from 'kysely';
import type { Logger } from '@register/service-kit';
import type { DocumentsPort } from '../adapters/documents-client';
import type { AppDatabase } from '../data-access/database';
import { flagManual } from '../data-access/applications.repository';
import { claimDueJobs, completeJob, postponeJob, type LinkJob } from '../data-access/link-jobs.repository';

export const LINK_FAILED_REDEN = 'documenten-niet-gekoppeld';

export interface DocumentLinkerOptions {
  db: Kysely<AppDatabase>;
  documents: DocumentsPort;
  logger: Logger;
  pollIntervalMs?: number;
  /** How long a claimed job stays invisible to other claimers (longer than one link call). */
  leaseMs?: number;
  maxBackoffMs?: number;
}

/**
 * Drives the link jobs that submit commits: one attempt right after the commit, then a background loop
 * retries with backoff until the documents service confirms. The link call is idempotent on the other
 * side, so a repeat after a crash or an expired lease does no harm.
 */
export class DocumentLinker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly options: DocumentLinkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** The inline attempt after a submit commits; failures stay queued for the loop. */
  async linkNow(applicationId: string): Promise<void> {
    try {
      const jobs = await claimDueJobs(this.options.db, { limit: 1, leaseMs: this.leaseMs, applicationId });
      for (const job of jobs) await this.process(job);
    } catch (err) {
      this.options.logger.warn({ err, applicationId }, 'inline document link failed; the dispatcher retries');
    }
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 30_000;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .catch((err) => this.options.logger.warn({ err }, 'document link pass failed; will retry'))
        .finally(() => {
          this.running = null;
          this.schedule(this.options.pollIntervalMs ?? 1000);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    for (;;) {
      const jobs = await claimDueJobs(this.options.db, { limit: 20, leaseMs: this.leaseMs });
      for (const job of jobs) await this.process(job);
      if (jobs.length < 20 || this.stopped) return;
    }
  }

  private async process(job: LinkJob): Promise<void> {
    const { db, documents, logger } = this.options;
    const outcome = await documents.link(job.application_id, job.owner, job.documents);
    if (outcome.kind === 'linked') {
      await completeJob(db, job.application_id);
    } else if (outcome.kind === 'rejected') {
      // Permanent (a document was deleted or taken meanwhile): a person has to look at it; stop retrying.
      await db.transaction().execute(async (trx) => {
        await flagManual(trx, job.application_id, LINK_FAILED_REDEN);
        await completeJob(trx, job.application_id);
      });
      logger.warn({ applicationId: job.application_id }, 'documents could not be linked; application flagged for manual handling');
    } else {
      const backoff = Math.min(500 * 2 ** Math.min(job.attempts, 10), this.options.maxBackoffMs ?? 30_000);
      await postponeJob(db, job.application_id, backoff, outcome.detail);
      logger.warn({ applicationId: job.application_id, attempts: job.attempts, backoffMs: backoff }, 'documents service unavailable; link retried later');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
