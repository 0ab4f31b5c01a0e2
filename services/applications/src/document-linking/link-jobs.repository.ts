import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { claimLeased } from '@register/service-kit';
import type { Db } from '../database';
import type { DocumentLinkJobsTable, DocumentLinkRef } from './link-jobs.table';

export type LinkJob = Selectable<DocumentLinkJobsTable>;
/** What working a job reads of it. */
export type LinkJobWork = Pick<LinkJob, 'application_id' | 'owner' | 'documents' | 'attempts'>;

const LINK_JOBS = {
  table: 'document_link_jobs',
  key: 'application_id',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempts',
};

/**
 * The promise to link a submitted application's digital documents, as the part of the submit's statement (ADR 0059,
 * 0278) that writes it when `source` (the submitted row) has one; claimed for `leaseMs` by the submit's own first
 * attempt (the loop takes it only when that lease runs out, after a crash say). A job still owed for the application
 * is replaced. Returns its `attempts`.
 */
export function linkJobOwed(
  source: string,
  job: { applicationId: string; owner: string; documents: DocumentLinkRef[] },
  leaseMs: number,
): RawBuilder<unknown> {
  return sql`INSERT INTO document_link_jobs (application_id, owner, documents, next_attempt_at, attempts)
    SELECT ${job.applicationId}::uuid, ${job.owner}, ${JSON.stringify(job.documents)}::jsonb,
      now() + ${`${leaseMs} milliseconds`}::interval, 1 FROM ${sql.table(source)}
    ON CONFLICT (application_id) DO UPDATE SET documents = EXCLUDED.documents,
      next_attempt_at = EXCLUDED.next_attempt_at, attempts = document_link_jobs.attempts + 1
    RETURNING attempts`;
}

/**
 * Claims due jobs by pushing their next attempt a lease ahead (and counting the attempt). SKIP LOCKED keeps
 * two claimers (replicas, or the inline attempt and the loop) off the same row; the lease makes a crashed
 * claimer's job due again without a transaction held open across the HTTP call. `applicationId`: only its job.
 */
export async function claimLinkJobs(
  db: Db,
  options: { limit: number; leaseMs: number; applicationId?: string },
): Promise<LinkJob[]> {
  const where = options.applicationId ? sql`application_id = ${options.applicationId}::uuid` : undefined;
  return claimLeased<LinkJob>(db as Kysely<unknown>, LINK_JOBS, {
    limit: options.limit,
    leaseMs: options.leaseMs,
    ...(where ? { where } : {}),
  });
}

export async function completeJob(db: Db, applicationId: string): Promise<void> {
  await db.deleteFrom('document_link_jobs').where('application_id', '=', applicationId).execute();
}

export async function postponeJob(db: Db, applicationId: string, delayMs: number, error: string): Promise<void> {
  await sql`UPDATE document_link_jobs SET next_attempt_at = now() + ${`${delayMs} milliseconds`}::interval,
    last_error = ${error}
    WHERE application_id = ${applicationId}::uuid`.execute(db);
}

/** The application needs a person's attention (`manual`, with a reden slug). */
export async function flagManual(db: Db, applicationId: string, reden: string): Promise<void> {
  await db.updateTable('applications').set({ manual: true, reden }).where('id', '=', applicationId).execute();
}
