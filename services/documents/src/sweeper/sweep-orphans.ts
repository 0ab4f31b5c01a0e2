import type { Kysely } from 'kysely';
import type { Logger } from '@register/service-kit';
import type { DocumentsDb } from '../data-access/documents.table';
import { knownObjectKeys } from '../data-access/documents.repository';
import type { ObjectStorage } from '../data-access/object-storage';

export interface SweepResult {
  removedObjects: number;
  /** null when the endpoint cannot list multipart uploads (s3rver). */
  abortedUploads: number | null;
}

export interface SweeperDeps {
  db: Kysely<DocumentsDb>;
  storage: ObjectStorage;
  logger: Logger;
  clock: { now(): Date };
}

const BATCH = 500;

/**
 * Removes crash leftovers: objects without a document row, older than `minAgeMs` (younger ones may
 * belong to an upload whose row is being written), and stale incomplete multipart uploads.
 */
export async function sweepOrphans(deps: SweeperDeps, minAgeMs: number): Promise<SweepResult> {
  const cutoff = new Date(deps.clock.now().getTime() - minAgeMs);
  let removedObjects = 0;
  let batch: string[] = [];
  const flush = async () => {
    const known = await knownObjectKeys(deps.db, batch);
    for (const key of batch.filter((k) => !known.has(k))) {
      await deps.storage.remove(key);
      removedObjects += 1;
    }
    batch = [];
  };
  for await (const object of deps.storage.list()) {
    if (object.lastModified >= cutoff) continue;
    batch.push(object.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  const abortedUploads = await deps.storage.abortIncompleteUploads(cutoff);
  if (removedObjects > 0 || abortedUploads) deps.logger.info({ removedObjects, abortedUploads }, 'swept orphan objects');
  return { removedObjects, abortedUploads };
}

/** Runs the sweep every `intervalMs`; one pass at a time, failures logged and retried next time. */
export function startSweeper(deps: SweeperDeps, options: { intervalMs: number; minAgeMs: number }): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepOrphans(deps, options.minAgeMs)
      .catch((err: unknown) => deps.logger.warn({ err }, 'sweep failed; retrying next interval'))
      .finally(() => (running = null));
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
