import { JobLoop, type Job } from '@register/service-kit';
import { findBrief } from '../briefs/briefs.repository';
import type { Context } from '../context';
import { createSharedBrief } from './create-brief';

/**
 * Writes the shared working brief soon after start (the demo data of `npm start`), retrying with back-off
 * while the applications service is not up yet. A request that comes first writes it itself.
 */
export function sharedBriefJob(ctx: Context): Job {
  let done = false;
  return new JobLoop({
    name: 'shared-brief',
    logger: ctx.logger.child({ subsystem: 'shared-brief' }),
    batchSize: 1,
    intervalMs: 1000,
    maxBackoffMs: 30_000,
    pass: async () => {
      if (done) return 0;
      if (!(await findBrief(ctx.db, { referentie: null }))) await createSharedBrief(ctx, ctx.sharedSubject);
      done = true;
      return 0;
    },
  });
}
