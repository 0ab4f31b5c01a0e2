import { JobLoop, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { sweepOrphans } from './sweep-orphans';

/**
 * The sweep every `SWEEP_INTERVAL_MS` (the first one interval after the start) on the kit's job loop: one
 * pass at a time; a failed pass is logged and tried again at the next interval, not sooner.
 */
export function sweeperJob(ctx: Context): Job {
  const logger = ctx.logger.child({ subsystem: 'sweeper' });
  return new JobLoop({
    name: 'sweeper',
    logger,
    // One pass sweeps the whole bucket, so it never asks for the next pass at once.
    pass: async () => {
      await sweepOrphans({ ...ctx, logger }, ctx.config.SWEEP_MIN_AGE_MS);
      return 0;
    },
    batchSize: 1,
    intervalMs: ctx.config.SWEEP_INTERVAL_MS,
    maxBackoffMs: ctx.config.SWEEP_INTERVAL_MS,
    runAtStart: false,
  });
}
