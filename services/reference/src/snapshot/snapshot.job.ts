import { reference } from '@register/contracts';
import { JobLoop, type Job } from '@register/service-kit';
import type { Context } from '../context';

/**
 * Keeps the snapshot current: a flag-changed event (from this replica or another) reloads it at once; a
 * reload every minute is the safety net for an event this replica missed.
 */
export function snapshotRefresh(ctx: Context): Job {
  const loop = new JobLoop({
    name: 'reference-snapshot',
    logger: ctx.logger,
    pass: async () => {
      await ctx.snapshot.reload();
      return 0;
    },
    batchSize: 1,
    intervalMs: 60_000,
    runAtStart: false,
  });
  let subscription: { unsubscribe(): void } | null = null;
  return {
    name: loop.name,
    start() {
      subscription = ctx.events.subscribe(reference.events.flagChanged.subject, () => loop.kick());
      loop.start();
    },
    async stop() {
      subscription?.unsubscribe();
      await loop.stop();
    },
  };
}
