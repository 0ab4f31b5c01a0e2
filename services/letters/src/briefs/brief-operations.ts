import type { Identity } from '@register/authz';
import { DomainError, NotFoundError, validationError } from '@register/problem';
import type { CachedBody } from '@register/service-kit';
import { checkSections } from '../content/content-rules';
import type { LetterSectionInput } from '../content/content.schemas';
import { besluitOf } from '../case-briefs/create-brief';
import { composeSections } from '../passages/compose';
import type { QueuedWrite } from './brief-ports';
import { evaluateBrief, NEXT_STATUS, type BriefOperation } from './brief-rules';
import { callerOf, type Caller } from './brief-view';
import type { BriefAddress, BriefState, StoredBrief } from './briefs.repository';
import { keyOf, readBrief, requireBrief, viewBodyOf, writeBrief, type LoadedBrief } from './find-brief';
import type { Context } from '../context';

interface Step<P> {
  /** Request validation that needs the stored brief (400): after a 403, before a 409 (ADR 0002). */
  prepare?: (brief: StoredBrief) => P;
  change: (brief: StoredBrief, input: { caller: Caller; now: Date; prepared: P }) => Partial<BriefState>;
}

const REVIEW_REFUSED = 'Only an approver who did not submit this letter may review it.';

const VERBS: Record<BriefOperation, string> = {
  edit: 'edited',
  submit: 'submitted',
  approve: 'approved',
  reject: 'rejected',
  send: 'sent',
  reset: 'reset',
  reveal: 'revealed',
};

type Decided = { next: StoredBrief; now: Date };
/** A write as queued: how it decides on a brief, and whether it may start from the brief this process saw last. */
interface Write {
  decide: (brief: StoredBrief) => Decided;
  optimistic: boolean;
}

/**
 * Applies one batch of writes to one brief (one write, or edits that arrived together): each is decided on the
 * state the one before left, and the last state is stored with one compare-and-set on the revision the batch
 * started from. Edits start from the brief as this process last saw it (no read: the compare-and-set proves it
 * current); a refusal decided on that, or a lost compare-and-set (another process wrote), decides the batch
 * again on a fresh read. Other writes always read first (send pins the letterhead published at that moment).
 */
async function applyBatch(
  ctx: Context,
  address: BriefAddress,
  batch: Array<QueuedWrite<Write, LoadedBrief>>,
): Promise<void> {
  let base = batch.every((w) => w.item.optimistic) ? ctx.keptBriefs.get(keyOf(address)) : undefined;
  let fresh = false;
  for (;;) {
    if (!base) {
      base = await readBrief(ctx, address);
      fresh = true;
      if (!base) throw new NotFoundError('brief');
    }
    const outcomes: Array<Decided | { error: unknown }> = [];
    let last: Decided | null = null;
    let stale = false;
    for (const { item } of batch) {
      try {
        last = item.decide(last?.next ?? base);
        outcomes.push(last);
      } catch (error) {
        if (!fresh) {
          stale = true;
          break;
        }
        outcomes.push({ error });
      }
    }
    if (!stale && last === null) {
      batch.forEach((w, i) => w.reject((outcomes[i] as { error: unknown }).error));
      return;
    }
    const written = stale || last === null ? undefined : await writeBrief(ctx, address, base, last.next, last.now);
    if (written) {
      batch.forEach((w, i) => {
        const o = outcomes[i]!;
        if ('error' in o) w.reject(o.error);
        else
          w.resolve(
            o === last
              ? written
              : {
                  ...o.next,
                  template: written.template,
                  revision: written.revision,
                  json: { sections: JSON.stringify(o.next.sections), frozenSections: written.json.frozenSections },
                },
          );
      });
      return;
    }
    base = undefined;
  }
}

/**
 * One operation on one brief, queued with every other write to it in this process (see applyBatch); across
 * processes the compare-and-set on the revision lets one of two racing approvals through, and the other,
 * decided again on what is there now, finds `goedgekeurd`: 409. Enforcement consults only the state
 * machine's verdict. Returns the fresh view as a body to send.
 */
async function operate<P>(
  ctx: Context,
  address: BriefAddress,
  identity: Identity | null,
  op: BriefOperation,
  step: Step<P>,
): Promise<CachedBody> {
  const caller = callerOf(identity);
  const decide = (brief: StoredBrief): Decided => {
    const verdict = evaluateBrief(brief.status, caller.capabilities, caller.id, brief.drafterId).verdicts[op];
    if (verdict === 'forbidden') {
      throw new DomainError(
        'forbidden',
        op === 'approve' || op === 'reject' ? REVIEW_REFUSED : `The caller may not have this letter ${VERBS[op]}.`,
      );
    }
    const prepared = step.prepare ? step.prepare(brief) : (undefined as P);
    if (verdict === 'conflict')
      throw new DomainError('conflict', `A letter in status ${brief.status} cannot be ${VERBS[op]}.`);
    const now = ctx.clock.now();
    const next: StoredBrief = { ...brief, ...step.change(brief, { caller, now, prepared }) };
    if (NEXT_STATUS[op]) next.status = NEXT_STATUS[op];
    return { next, now };
  };
  const edit = op === 'edit';
  const written = await ctx.briefWrites.submit(
    keyOf(address),
    { decide, optimistic: edit },
    { batchable: edit, apply: (batch: Array<QueuedWrite<Write, LoadedBrief>>) => applyBatch(ctx, address, batch) },
  );
  return viewBodyOf(ctx, written, identity);
}

/** PUT: replaces the sections (locked ones stay as they are); 400 names each offending node. */
export function saveBrief(
  ctx: Context,
  address: BriefAddress,
  identity: Identity | null,
  sections: readonly LetterSectionInput[] | null | undefined,
): Promise<CachedBody> {
  return operate(ctx, address, identity, 'edit', {
    prepare: (brief) => {
      const outcome = checkSections({
        sections,
        stored: brief.sections,
        passageContent: (id, v) => ctx.passages.content(id, v),
        newBlockId: ctx.newId,
      });
      if (!outcome.ok) throw validationError(outcome.errors, 'The letter content is invalid.');
      return outcome.sections;
    },
    change: (_brief, { prepared }) => ({ sections: prepared }),
  });
}

/** Submit: the caller becomes the drafter and the content is frozen as a value copy for review. */
export function submitBrief(ctx: Context, address: BriefAddress, identity: Identity | null): Promise<CachedBody> {
  return operate(ctx, address, identity, 'submit', {
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

export function approveBrief(ctx: Context, address: BriefAddress, identity: Identity | null): Promise<CachedBody> {
  return operate(ctx, address, identity, 'approve', {
    change: (_b, { caller, now }) => ({ approvedBy: caller.id, approvedAt: now }),
  });
}

/**
 * Reject's `load`, before its body is read: the letter exists (404) and the caller may review it, so that
 * rejecting one's own letter is a 403 before a 400 (ADR 0002). The write checks again under the lock.
 */
export async function requireReviewable(ctx: Context, address: BriefAddress, identity: Identity | null): Promise<void> {
  const brief = await requireBrief(ctx, address);
  const caller = callerOf(identity);
  if (evaluateBrief(brief.status, caller.capabilities, caller.id, brief.drafterId).verdicts.reject === 'forbidden')
    throw new DomainError('forbidden', REVIEW_REFUSED);
}

export function rejectBrief(
  ctx: Context,
  address: BriefAddress,
  identity: Identity | null,
  comments: string | null,
): Promise<CachedBody> {
  return operate(ctx, address, identity, 'reject', {
    change: (_b, { caller, now }) => ({ rejectedBy: caller.id, rejectedAt: now, comments }),
  });
}

/** Send: the letter is pinned to the org-template version published at this moment. */
export function sendBrief(ctx: Context, address: BriefAddress, identity: Identity | null): Promise<CachedBody> {
  return operate(ctx, address, identity, 'send', {
    // The letterhead read with the brief: the version published at this moment.
    change: (brief, { now }) => ({ sentAt: now, templateVersion: brief.template.version }),
  });
}

/** Reset: a fresh concept from the default passages of the brief's beroep and besluit. */
export function resetBrief(ctx: Context, address: BriefAddress, identity: Identity | null): Promise<CachedBody> {
  return operate(ctx, address, identity, 'reset', {
    change: (brief) => ({
      sections: composeSections(ctx.passages, brief.beroep, besluitOf(brief.besluit), ctx.newId),
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
