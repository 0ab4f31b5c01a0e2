import type { MirrorState } from './case-mirror.table';
import type { Logger } from '@register/service-kit';
import type { ZgwPort } from './zgw';
import type { ZgwCatalog } from './zgw-catalog';

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

/** The case system and the mirror's settings (ADR 0011); the service's context holds them while mirroring is on. */
export interface CaseMirror {
  zgw: ZgwPort;
  catalog: ZgwCatalog;
  target: MirrorTarget;
  /** The mirror's own child logger. */
  logger: Logger;
  /** How long a claim holds a case; renewed after every step. */
  leaseMs: number;
  /** When a diverged case is tried again (ADR 0011: at most every 5 minutes). */
  reconcileMs: number;
  /** The reconciler's window from the first divergence (48 hours). */
  windowMs: number;
  /**
   * Whether the service is busy answering requests (more a second than ZGW_MIRROR_YIELD_RPS): the mirror then works
   * one case per pass and leaves the rest for when the load drops (ADR 0273).
   */
  busy: () => boolean;
}
