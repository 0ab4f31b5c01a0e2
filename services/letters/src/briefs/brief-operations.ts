import type { Transaction } from 'kysely';
import type { Identity } from '@register/authz';
import { DomainError, NotFoundError, validationError } from '@register/problem';
import type { Clock } from '@register/service-kit';
import { checkSections } from '../content/content-rules';
import type { LetterSectionInput } from '../content/content.schemas';
import { besluitOf } from '../case-briefs/create-brief';
import type { LettersDb } from '../database';
import { composeSections } from '../passages/compose';
import type { BriefWriteQueue } from './brief-queue';
import { evaluateBrief, NEXT_STATUS, type BriefOperation } from './brief-rules';
import { callerOf, type Caller } from './brief-view';
import type { BriefView } from './briefs.schemas';
import { findBrief, updateBriefState, type BriefAddress, type BriefState, type StoredBrief } from './briefs.repository';
import { requireBrief, viewOf, type BriefDeps } from './find-brief';

export interface OperationDeps extends BriefDeps {
  clock: Clock;
  briefWrites: BriefWriteQueue;
}

interface Step<P> {
  /** Request validation that needs the stored brief (400): after a 403, before a 409 (decisions §2). */
  prepare?: (brief: StoredBrief) => P;
  change: (brief: StoredBrief, input: { caller: Caller; now: Date; prepared: P; trx: Transaction<LettersDb> }) => Promise<Partial<BriefState>> | Partial<BriefState>;
}

const REVIEW_REFUSED = 'Only an approver who did not submit this letter may review it.';

const VERBS: Record<BriefOperation, string> = { edit: 'edited', submit: 'submitted', approve: 'approved', reject: 'rejected', send: 'sent', reset: 'reset', reveal: 'revealed' };

/**
 * One operation on one brief, serialised with every other write to it (the row is locked for the transaction,
 * so of two approvals racing one succeeds and the other finds `goedgekeurd`: 409). Enforcement consults
 * only the state machine's verdict. Returns the fresh view.
 */
async function operate<P>(deps: OperationDeps, address: BriefAddress, identity: Identity | null, op: BriefOperation, step: Step<P>): Promise<BriefView> {
  const caller = callerOf(identity);
  const write = () => deps.db.transaction().execute(async (trx) => {
    const brief = await findBrief(trx, address, { forUpdate: true });
    if (!brief) throw new NotFoundError('brief');
    const verdict = evaluateBrief(brief.status, caller.capabilities, caller.id, brief.drafterId).verdicts[op];
    if (verdict === 'forbidden') {
      throw new DomainError('forbidden', op === 'approve' || op === 'reject' ? REVIEW_REFUSED : `The caller may not have this letter ${VERBS[op]}.`);
    }
    const prepared = step.prepare ? step.prepare(brief) : (undefined as P);
    if (verdict === 'conflict') throw new DomainError('conflict', `A letter in status ${brief.status} cannot be ${VERBS[op]}.`);
    const now = deps.clock.now();
    const next: StoredBrief = { ...brief, ...(await step.change(brief, { caller, now, prepared, trx })) };
    if (NEXT_STATUS[op]) next.status = NEXT_STATUS[op];
    await updateBriefState(trx, brief.briefId, next, now);
    return next;
  });
  return viewOf(deps, await deps.briefWrites.run(address.referentie ?? '', write), identity);
}

/** PUT: replaces the sections (locked ones stay as they are); 400 names each offending node. */
export function saveBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null, sections: readonly LetterSectionInput[] | null | undefined): Promise<BriefView> {
  return operate(deps, address, identity, 'edit', {
    prepare: (brief) => {
      const outcome = checkSections({ sections, stored: brief.sections, passageContent: (id, v) => deps.passages.content(id, v), newBlockId: deps.newId });
      if (!outcome.ok) throw validationError(outcome.errors, 'The letter content is invalid.');
      return outcome.sections;
    },
    change: (_brief, { prepared }) => ({ sections: prepared }),
  });
}

/** Submit: the caller becomes the drafter and the content is frozen as a value copy for review. */
export function submitBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null): Promise<BriefView> {
  return operate(deps, address, identity, 'submit', {
    change: (brief, { caller, now }) => ({
      frozenSections: structuredClone(brief.sections),
      drafterId: caller.id,
      submittedBy: caller.id,
      submittedAt: now,
      approvedBy: null,
      approvedAt: null,
      rejectedBy: null,
      rejectedAt: null,
      comments: null,
    }),
  });
}

export function approveBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null): Promise<BriefView> {
  return operate(deps, address, identity, 'approve', { change: (_b, { caller, now }) => ({ approvedBy: caller.id, approvedAt: now }) });
}

/**
 * Reject's `load`, before its body is read: the letter exists (404) and the caller may review it, so that
 * rejecting one's own letter is a 403 before a 400 (decisions §2). The write checks again under the lock.
 */
export async function requireReviewable(deps: OperationDeps, address: BriefAddress, identity: Identity | null): Promise<void> {
  const brief = await requireBrief(deps, address);
  const caller = callerOf(identity);
  if (evaluateBrief(brief.status, caller.capabilities, caller.id, brief.drafterId).verdicts.reject === 'forbidden') throw new DomainError('forbidden', REVIEW_REFUSED);
}

export function rejectBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null, comments: string | null): Promise<BriefView> {
  return operate(deps, address, identity, 'reject', { change: (_b, { caller, now }) => ({ rejectedBy: caller.id, rejectedAt: now, comments }) });
}

/** Send: the letter is pinned to the org-template version published at this moment. */
export function sendBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null): Promise<BriefView> {
  return operate(deps, address, identity, 'send', {
    // The letterhead read with the locked row: the version published at this moment.
    change: (brief, { now }) => ({ sentAt: now, templateVersion: brief.template.version }),
  });
}

/** Reset: a fresh concept from the default passages of the brief's beroep and besluit. */
export function resetBrief(deps: OperationDeps, address: BriefAddress, identity: Identity | null): Promise<BriefView> {
  return operate(deps, address, identity, 'reset', {
    change: (brief) => ({
      sections: composeSections(deps.passages, brief.beroep, besluitOf(brief.besluit), deps.newId),
      frozenSections: null,
      submittedBy: null,
      submittedAt: null,
      approvedBy: null,
      approvedAt: null,
      rejectedBy: null,
      rejectedAt: null,
      comments: null,
      sentAt: null,
      drafterId: null,
      templateVersion: null,
    }),
  });
}
