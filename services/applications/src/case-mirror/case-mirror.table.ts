import type { Generated } from 'kysely';

/** pending: work to do (due, or leased by the mirror); diverged: the reconciler's (ADR 0011); done: nothing owed. */
export type MirrorState = 'pending' | 'diverged' | 'done';

/** What the mirror owes the zaaksysteem for one case, written in the transaction of the request that caused it. */
export interface CaseMirrorsTable {
  referentie: string;
  /** Null once the admin deleted the application (the zaak delete is still owed). */
  application_id: string | null;
  state: Generated<MirrorState>;
  /** Bumped by every new piece of work (a besluit, a delete), so a pass that read an older version hands over. */
  work_version: Generated<number>;
  attempts: Generated<number>;
  /** Due time, or the end of a claim's lease; null when nothing is owed. */
  next_attempt_at: Generated<Date | null>;
  zaak_url: string | null;
  zaak_uuid: string | null;
  submit_correlation_id: string | null;
  /** The case handler whose besluit this is: the JWT's user_id of the besluit status. */
  besluit_by: string | null;
  besluit_correlation_id: string | null;
  delete_requested: Generated<boolean>;
  delete_correlation_id: string | null;
  /** Start of the reconciler's 48 hours; null unless diverged. */
  diverged_at: Date | null;
  diverged_correlation_id: string | null;
  last_error: string | null;
  /** The W3C traceparent of the request that last gave the mirror work: its ZGW calls continue that trace. */
  traceparent: string | null;
  created_at: Generated<Date>;
}

/**
 * One completed step (`zaak`, `status:ingediend`, `rol:initiator`, `eio:<documentId>`, `zio:<documentId>`,
 * `status:besluit`).
 */
export interface CaseMirrorStepsTable {
  referentie: string;
  step: string;
  url: string;
  recorded_at: Generated<Date>;
}
