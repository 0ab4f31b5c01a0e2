import { JobLoop, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { linkDueJobs } from './link-documents';

const BATCH = 20;

/** The document linker on the kit's job loop: every LINK_POLL_INTERVAL_MS it works the due link jobs. */
export function documentLinkJob(ctx: Context): Job {
  const deps = {
    db: ctx.db,
    documents: ctx.documents,
    logger: ctx.logger.child({ subsystem: 'document-linker' }),
    processing: ctx.processing,
  };
  return new JobLoop({
    name: 'document-linker',
    logger: deps.logger,
    pass: () => linkDueJobs(deps, BATCH),
    batchSize: BATCH,
    intervalMs: ctx.config.LINK_POLL_INTERVAL_MS,
  });
}
