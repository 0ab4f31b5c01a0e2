import { sql, type Kysely, type Selectable } from 'kysely';
import { claimLeased } from '@register/service-kit';
import type { Db } from '../database';
import type { DocumentLinkJobsTable, DocumentLinkRef } from './link-jobs.table';

export type LinkJob = Selectable<DocumentLinkJobsTable>;

const LINK_JOBS = {
  table: 'document_link_jobs',
  key: 'application_id',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempts',
};

/**
 * The promise to link a submitted application's digital documents, in the submit's transaction (ADR 0059), claimed
 * for `leaseMs` by the submit's own first attempt (the loop takes it only when that lease runs out, after a crash
 * say). A job still owed for the application is replaced.
 */
export async function enqueueLinkJob(
  db: Db,
  job: { applicationId: string; owner: string; documents: DocumentLinkRef[] },
  leaseMs: number,
): Promise<LinkJob> {
  const leased = sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`;
  return db
    .insertInto('document_link_jobs')
    .values({
      application_id: job.applicationId,
      owner: job.owner,
      documents: JSON.stringify(job.documents),
      next_attempt_at: leased,
      attempts: 1,
    })
    .onConflict((oc) =>
      oc.column('application_id').doUpdateSet((eb) => ({
        documents: eb.ref('excluded.documents'),
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
        attempts: eb(eb.ref('document_link_jobs.attempts'), '+', 1),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
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
  await sql`UPDATE document_link_jobs SET next_attempt_at = now() + ${`${delayMs} milliseconds`}::interval, last_error = ${error}
    WHERE application_id = ${applicationId}::uuid`.execute(db);
}

/** The application needs a person's attention (`manual`, with a reden slug). */
export async function flagManual(db: Db, applicationId: string, reden: string): Promise<void> {
  await db.updateTable('applications').set({ manual: true, reden }).where('id', '=', applicationId).execute();
}
