import { sql, type Kysely } from 'kysely';
import { VERWERKINGSACTIVITEITEN } from '@register/contracts';
import { JobLoop, type Job } from '@register/service-kit';
import type { Context } from '../context';
import type { AuditDb } from '../database';

const BATCH = 1000;

/** `P7Y`, `P6M`, `P30D` as a PostgreSQL interval (the register's test holds every bewaartermijn to this form). */
export function intervalOf(bewaartermijn: string): string {
  const m = /^P(\d+)([YMD])$/.exec(bewaartermijn);
  if (!m) throw new Error(`bewaartermijn ${bewaartermijn} is not P<n>Y, P<n>M or P<n>D`);
  return `${m[1]} ${{ Y: 'years', M: 'months', D: 'days' }[m[2] as 'Y' | 'M' | 'D']}`;
}

/**
 * Removes up to a batch of records per activity that ended longer ago than the activity's bewaartermijn;
 * records of an activity no longer in the register are kept (an operator decides about them). Returns how many.
 */
export async function removeExpired(db: Kysely<AuditDb>, now: Date): Promise<number> {
  let removed = 0;
  for (const activity of VERWERKINGSACTIVITEITEN) {
    const result = await sql`DELETE FROM logbook WHERE record_id IN (
        SELECT record_id FROM logbook WHERE processing_activity_id = ${activity.id}
          AND end_time < ${now}::timestamptz - ${intervalOf(activity.bewaartermijn)}::interval LIMIT ${BATCH})`.execute(
      db,
    );
    removed += Number(result.numAffectedRows ?? 0);
  }
  return removed;
}

/** The retention of the processing log as a job of the service: hourly, at once again while a batch was full. */
export function logbookRetention(ctx: Context): Job {
  return new JobLoop({
    name: 'logbook-retention',
    logger: ctx.logger.child({ subsystem: 'logbook-retention' }),
    pass: () => removeExpired(ctx.db, ctx.clock.now()),
    batchSize: BATCH,
    intervalMs: 3_600_000,
  });
}
