import { sql, type Selectable } from 'kysely';
import type { DocumentLinkJobsTable } from './database';
import type { Db } from './applications.repository';

/** Written by the submit statement (applications.repository submitConcept): the promise to link, durable before the answer goes out. */
export type LinkJob = Selectable<DocumentLinkJobsTable>;

/**
 * Claims due jobs by pushing their next attempt a lease ahead. SKIP LOCKED keeps two dispatchers (or the
 * inline attempt and the dispatcher) from claiming the same row; the lease means a crashed claimer's job
 * becomes due again without any transaction held open across the HTTP call.
 */
export async function claimDueJobs(db: Db, options: { limit: number; leaseMs: number; applicationId?: string }): Promise<LinkJob[]> {
  const only = options.applicationId ? sql`AND application_id = ${options.applicationId}::uuid` : sql``;
  const { rows } = await sql<LinkJob>`
    UPDATE document_link_jobs SET attempts = attempts + 1, next_attempt_at = now() + ${`${options.leaseMs} milliseconds`}::interval
    WHERE application_id IN (
      SELECT application_id FROM document_link_jobs
      WHERE next_attempt_at <= now() ${only}
      ORDER BY next_attempt_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return rows;
}

export async function completeJob(db: Db, applicationId: string): Promise<void> {
  await db.deleteFrom('document_link_jobs').where('application_id', '=', applicationId).execute();
}

export async function postponeJob(db: Db, applicationId: string, delayMs: number, error: string): Promise<void> {
  await sql`UPDATE document_link_jobs SET next_attempt_at = now() + ${`${delayMs} milliseconds`}::interval, last_error = ${error}
    WHERE application_id = ${applicationId}::uuid`.execute(db);
}

export async function pendingJobCount(db: Db): Promise<number> {
  const row = await db.selectFrom('document_link_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
