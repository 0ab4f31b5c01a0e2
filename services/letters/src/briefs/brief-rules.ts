import type { Capability } from '@register/contracts';

/** ADR 0010: the status tags of a brief. */
export const BRIEF_STATUSES = ['concept', 'ter-goedkeuring', 'afgekeurd', 'goedgekeurd', 'verzonden'] as const;
export type BriefStatusTag = (typeof BRIEF_STATUSES)[number];

export const BRIEF_OPERATIONS = ['edit', 'submit', 'approve', 'reject', 'send', 'reset', 'reveal'] as const;
export type BriefOperation = (typeof BRIEF_OPERATIONS)[number];

/** What enforcement does with an operation: go ahead, 403, or 409. */
export type Verdict = 'allow' | 'forbidden' | 'conflict';

export interface BriefDecisions {
  canEdit: boolean;
  canApprove: boolean;
  canReject: boolean;
  canSend: boolean;
  canRevealRegisterNummer: boolean;
}

export interface BriefEvaluation {
  decisions: BriefDecisions;
  verdicts: Record<BriefOperation, Verdict>;
}

const editable: readonly BriefStatusTag[] = ['concept', 'afgekeurd'];

/**
 * The letter's state machine (ADR 0010), the one place that decides. From the status, the caller's
 * capabilities, who the caller is and who drafted the letter it computes every operation's verdict (a missing
 * capability, or reviewing one's own letter, is 403 before a state that does not allow it, 409) and the
 * `decisions` flags from those verdicts, so a flag and its enforcement cannot disagree.
 */
export function evaluateBrief(
  status: BriefStatusTag,
  capabilities: readonly Capability[],
  caller: string | null,
  drafterId: string | null,
): BriefEvaluation {
  const has = (c: Capability) => capabilities.includes(c);
  const inState = (...allowed: BriefStatusTag[]): Verdict => (allowed.includes(status) ? 'allow' : 'conflict');
  const draft: Verdict = has('brief:edit') ? inState(...editable) : 'forbidden';
  // Four eyes: whoever submitted the letter may not approve or reject it.
  const review: Verdict =
    !has('brief:approve') || (caller !== null && caller === drafterId) ? 'forbidden' : inState('ter-goedkeuring');
  const verdicts: Record<BriefOperation, Verdict> = {
    edit: draft,
    submit: draft,
    approve: review,
    reject: review,
    send: inState('goedgekeurd'),
    reset: 'allow',
    reveal: has('brief:reveal-registernummer') ? 'allow' : 'forbidden',
  };
  return {
    verdicts,
    decisions: {
      canEdit: verdicts.edit === 'allow',
      canApprove: verdicts.approve === 'allow',
      canReject: verdicts.reject === 'allow',
      canSend: verdicts.send === 'allow',
      canRevealRegisterNummer: verdicts.reveal === 'allow',
    },
  };
}

/** The status each operation leads to (reset starts over; edit and reveal leave it). */
export const NEXT_STATUS: Partial<Record<BriefOperation, BriefStatusTag>> = {
  submit: 'ter-goedkeuring',
  approve: 'goedgekeurd',
  reject: 'afgekeurd',
  send: 'verzonden',
  reset: 'concept',
};

/** While a letter is reviewed, approved or sent, what it shows and renders is the copy frozen at submit. */
export function showsFrozenCopy(status: BriefStatusTag): boolean {
  return status === 'ter-goedkeuring' || status === 'goedgekeurd' || status === 'verzonden';
}
