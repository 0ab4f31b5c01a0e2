import { JobLoop } from '@register/service-kit';
import type { Context } from '../context';
import { deleteExpired } from './idempotency.repository';

const SWEEP_BATCH = 1000;
const SWEEP_INTERVAL_MS = 10 * 60_000;

/** Deletes kept answers past their 24 h, a batch per pass; a full batch sweeps on at once. */
export function idempotencySweeper(ctx: Context): JobLoop {
  return new JobLoop({
    name: 'idempotency-sweeper',
    logger: ctx.logger.child({ subsystem: 'idempotency-sweeper' }),
    pass: () => deleteExpired(ctx.db, SWEEP_BATCH, ctx.clock.now()),
    batchSize: SWEEP_BATCH,
    intervalMs: SWEEP_INTERVAL_MS,
  });
}
