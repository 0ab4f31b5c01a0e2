import { JobLoop, type Job, type Logger } from '@register/service-kit';
import type { Context } from '../context';
import { isMirroring } from './mirror-case';
import { MirrorWorkers } from './mirror-pass';

/** What runs when mirroring is off: nothing. */
const idle = (name: string): Job => ({ name, start: () => undefined, stop: () => Promise.resolve() });

/**
 * The mirror (ADR 0011) on the kit's job loop: every ZGW_MIRROR_POLL_INTERVAL_MS it claims the cases a
 * committed submit, besluit or admin delete owes the zaaksysteem, ZGW_MIRROR_CONCURRENCY at a time.
 */
export function caseMirrorJob(ctx: Context): Job {
  if (!isMirroring(ctx)) return idle('case-mirror');
  const batch = ctx.config.ZGW_MIRROR_CONCURRENCY;
  return workersJob(
    'case-mirror',
    ctx.mirror.logger,
    new MirrorWorkers(ctx, 'pending', batch),
    ctx.config.ZGW_MIRROR_POLL_INTERVAL_MS,
  );
}

/**
 * The reconciler: diverged cases again from their last step, each at most every ZGW_RECONCILE_INTERVAL_MS
 * (5 minutes) and for ZGW_RECONCILE_WINDOW (48 hours) from its first divergence; the due time per case is
 * in the table, so the loop itself may look often.
 */
export function reconcilerJob(ctx: Context): Job {
  if (!isMirroring(ctx)) return idle('case-reconciler');
  const batch = ctx.config.ZGW_MIRROR_CONCURRENCY;
  const intervalMs = Math.min(
    ctx.config.ZGW_RECONCILE_INTERVAL_MS,
    5000,
    Math.max(1000, 10 * ctx.config.ZGW_MIRROR_POLL_INTERVAL_MS),
  );
  return workersJob(
    'case-reconciler',
    ctx.mirror.logger.child({ subsystem: 'reconciler' }),
    new MirrorWorkers(ctx, 'diverged', batch),
    intervalMs,
  );
}

/** The kit's job loop driving the workers; its stop also waits for the cases under way. */
function workersJob(name: string, logger: Logger, workers: MirrorWorkers, intervalMs: number): Job {
  const loop = new JobLoop({ name, logger, pass: () => workers.pass(), batchSize: workers.concurrency, intervalMs });
  return {
    name,
    start: () => loop.start(),
    stop: async () => {
      await loop.stop();
      await workers.idle();
    },
  };
}
