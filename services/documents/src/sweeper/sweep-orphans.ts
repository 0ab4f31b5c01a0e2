import type { Context } from '../context';
import { knownObjectKeys } from './sweeper.repository';

export interface SweepResult {
  removedObjects: number;
  /** null when the endpoint cannot list multipart uploads (s3rver). */
  abortedUploads: number | null;
}

const BATCH = 500;

/**
 * Removes crash leftovers: objects without a document row, older than `minAgeMs` (younger ones may
 * belong to an upload whose row is being written), and stale incomplete multipart uploads.
 */
export async function sweepOrphans(ctx: Context, minAgeMs: number): Promise<SweepResult> {
  const cutoff = new Date(ctx.clock.now().getTime() - minAgeMs);
  let removedObjects = 0;
  let batch: string[] = [];
  const flush = async () => {
    const known = await knownObjectKeys(ctx.db, batch);
    for (const key of batch.filter((k) => !known.has(k))) {
      await ctx.storage.remove(key);
      removedObjects += 1;
    }
    batch = [];
  };
  for await (const object of ctx.storage.list()) {
    if (object.lastModified >= cutoff) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const abortedUploads = await ctx.storage.abortIncompleteUploads(cutoff);
  if (removedObjects > 0 || abortedUploads) ctx.logger.info({ removedObjects, abortedUploads }, 'swept orphan objects');
  return { removedObjects, abortedUploads };
}
