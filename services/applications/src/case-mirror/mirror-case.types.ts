import type { MirrorState } from './case-mirror.table';

/** One case as a mirror pass works it: the owed work, the application's facts and the steps recorded so far. */
export interface MirrorCase {
  referentie: string;
  applicationId: string | null;
  state: MirrorState;
  workVersion: number;
  /** Claims since the last clean end of a pass: above 1, the first step not recorded may have been sent. */
  attempts: number;
  zaakUrl: string | null;
  /** Null when the application row is gone (only a delete is then owed). */
  application: {
    owner: string;
    type: string;
    submittedAt: Date;
    documents: Array<{ documentId: string; categoryId: string | null }>;
    besluit: string | null;
    toelichting: string | null;
    decidedAt: Date | null;
  } | null;
  besluitBy: string | null;
  deleteRequested: boolean;
  correlation: { submit: string | null; besluit: string | null; delete: string | null; diverged: string | null };
  /** The trace of the request that last gave the mirror work (its `traceparent`), continued by this case's calls. */
  traceparent: string | null;
  /** step key → URL of what it created. */
  recorded: Map<string, string>;
}

/** Where the mirror writes (ADR 0011 configuration). */
export interface MirrorTarget {
  zakenUrl: string;
  documentenUrl: string;
  zaaktypeUrl: string;
  rsin: string;
}
