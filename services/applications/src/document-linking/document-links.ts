import type { DocumentLinkRef } from './link-jobs.table';

/** Outcome of a link call: `rejected` is permanent (the documents service refused), `unavailable` is worth retrying. */
export type LinkOutcome =
  { kind: 'linked' } | { kind: 'rejected'; detail: string } | { kind: 'unavailable'; detail: string };

/** The documents service links a submitted application's documents (all or none; repeating it is harmless). */
export interface DocumentLinkPort {
  link(applicationId: string, owner: string, documents: DocumentLinkRef[]): Promise<LinkOutcome>;
}
