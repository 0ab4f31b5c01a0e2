import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { applications } from '@register/contracts';
import { briefExistsForApplication, insertBrief, type StoredCaseContext } from '../briefs/briefs.repository';
import type { Context } from '../context';
import type { LettersDb } from '../database';
import { composeSections } from '../passages/compose';
import { BESLUITEN, type Besluit } from '../passages/passages.schemas';
import type { LetterContext } from './case-context-source';

/** ADR 0010: every brief uses the letterhead of sub-organisation `register`. */
export const BRIEF_TEMPLATE = 'register';

/** The besluit a brief is written for; a context without one (the shared brief's demo case) gets a grant letter. */
export function besluitOf(value: string | null | undefined): Besluit {
  return (BESLUITEN as readonly string[]).includes(value ?? '') ? (value as Besluit) : 'toekennen';
}

const NO_CONTEXT: StoredCaseContext = {
  applicationId: null,
  referentie: null,
  type: null,
  besluit: null,
  toelichting: null,
  decidedAt: null,
  beroep: null,
  zorgverlenerNaam: null,
  registerNummer: null,
  subject: null,
};

/** The copy letters keeps: the context's own fields and nothing else; every field null without a context. */
function copyOf(c: LetterContext | null): StoredCaseContext {
  if (!c) return { ...NO_CONTEXT };
  return {
    applicationId: c.applicationId,
    referentie: c.referentie,
    type: c.type,
    besluit: c.besluit,
    toelichting: c.toelichting,
    decidedAt: c.decidedAt,
    beroep: c.beroep,
    zorgverlenerNaam: c.zorgverlenerNaam,
    registerNummer: c.registerNummer,
    // Optional in the contract: an applications service of before it was added sends none.
    subject: c.subject ?? null,
  };
}

async function create(ctx: Context, context: StoredCaseContext, isShared: boolean): Promise<boolean> {
  const besluit = besluitOf(context.besluit);
  const start = new Date();
  // The system writes a case's letter from its practitioner's data: logged with the brief or not at all.
  const logged = async (trx: Transaction<LettersDb>) => {
    if (isShared || !context.subject) return;
    const step = { activity: 'besluitbrief', name: 'letters create case brief', door: 'systeem', start } as const;
    await ctx.processing.write(trx, { ...step, end: new Date(), subjects: [context.subject] });
  };
  return insertBrief(
    ctx.db,
    {
      briefId: ctx.newId(),
      isShared,
      applicationId: isShared ? null : context.applicationId,
      referentie: isShared ? null : context.referentie,
      beroep: context.beroep,
      besluit: context.besluit,
      templateId: BRIEF_TEMPLATE,
      sections: composeSections(ctx.passages, context.beroep, besluit, ctx.newId),
      context,
    },
    logged,
  );
}

type Decided = z.infer<typeof applications.events.decided.data>;

/**
 * A besluit was recorded: the case's brief is written from the passages of that besluit, with the case context
 * fetched once from the applications service (events carry no personal data). Idempotent: a redelivered
 * event finds the brief and does nothing; an unreachable applications service throws (redelivery later).
 */
export async function createCaseBrief(ctx: Context, event: Decided): Promise<void> {
  if (await briefExistsForApplication(ctx.db, event.applicationId)) return;
  const context = await ctx.caseContexts.ofCase(event.applicationId);
  if (!context) {
    // Deleted since, or not this deployment's case: nothing to write a letter for.
    ctx.logger.warn(
      { applicationId: event.applicationId },
      'decided case unknown to the applications service; no brief',
    );
    return;
  }
  await create(
    ctx,
    copyOf({ ...context, applicationId: event.applicationId, besluit: context.besluit ?? event.besluit }),
    false,
  );
}

/** The shared working brief (ADR 0010): the demo case of one practitioner, created on first use. */
export async function createSharedBrief(ctx: Context, subject: string): Promise<void> {
  const context = await ctx.caseContexts.ofPractitioner(subject);
  await create(ctx, copyOf(context), true);
}
