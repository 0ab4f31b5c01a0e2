import type { ApplyBatch, CachedBody, QueuedItem } from '@register/service-kit';
import type { ContentJson, StoredBrief } from './briefs.repository';
import type { BriefView } from './briefs.schemas';

/** A brief as read or written, with its content's JSON text (what a write stores and a view carries). */
export interface LoadedBrief extends StoredBrief {
  json: ContentJson;
}

/**
 * The briefs this process read or wrote last, by address (`''`: the shared one), each at the revision it was
 * seen at; a bounded number. Only a copy: a read still asks PostgreSQL for the revision (ADR 0080) and a write
 * from a copy is a compare-and-set on it (ADR 0079). A brief is never deleted, so a kept copy also proves that
 * its brief exists.
 */
export interface KeptBriefs {
  get(key: string): LoadedBrief | undefined;
  /** Keeps `brief` unless a later revision is kept already (reads and writes may finish out of order). */
  remember(key: string, brief: LoadedBrief): void;
}

/** One write waiting for its brief's turn, settled by the batch it is applied in. */
export type QueuedWrite<T, R> = QueuedItem<T, R>;

/**
 * Runs the writes to one brief one batch after another within this process (ADR 0079): writes that arrive while
 * one is applied wait, and consecutive batchable ones among them are applied together.
 */
export interface BriefWrites {
  submit<T, R>(key: string, item: T, options: { batchable: boolean; apply: ApplyBatch<T, R> }): Promise<R>;
}

/**
 * A caller's view as a body to send. The two large parts are handed over as JSON text too (the content as
 * serialised once per revision, the passages once per beroep), equal to `JSON.stringify` of the view's
 * `brief.sections` and `availablePassages`, so a body need not serialise them again (ADR 0080).
 */
export interface ViewBodies {
  bodyOf(view: BriefView, asText: { sections: string; availablePassages: string }): CachedBody;
}
