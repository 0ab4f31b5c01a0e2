import { JobLoop, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { linkDueJobs } from './link-documents';

const BATCH = 20;

/** The document linker on the kit's job loop: every LINK_POLL_INTERVAL_MS it works the due link jobs. */
export function documentLinkJob(ctx: Context): Job {
  // The same context with the linker's own child logger, so its lines name it.
  const linker: Context = { ...ctx, logger: ctx.logger.child({ subsystem: 'document-linker' }) };
  return new JobLoop({
    name: 'document-linker',
    logger: linker.logger,
    pass: () => linkDueJobs(linker, BATCH),
    batchSize: BATCH,
    intervalMs: ctx.config.LINK_POLL_INTERVAL_MS,
  });
}
