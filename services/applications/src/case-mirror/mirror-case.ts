import type { Context } from '../context';
import { linkPending, recordStep } from './case-mirror.repository';
import type { CaseMirror, MirrorCase } from './mirror-case.types';
import {
  diverged,
  MAX_ATTEMPTS,
  ok,
  plannedSteps,
  remainingSteps,
  retryDelayMs,
  type Failure,
  type Result,
  type Step,
} from './mirror-rules';
import { MissingFact, STEPS, type CreateStep, type FileContent, type StepEnv } from './mirror-steps';
import { SYSTEM } from './zgw';

/** The service's context while mirroring is on: the mirror's steps need the case system it names (ADR 0258). */
export type MirrorContext = Context & { mirror: CaseMirror };

export const isMirroring = (ctx: Context): ctx is MirrorContext => ctx.mirror !== null;

export type CaseOutcome =
  | { kind: 'complete' }
  | { kind: 'diverged'; step: string; detail: string; correlationId: string | null }
  | { kind: 'postponed'; detail: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * ADR 0011: a failure without an HTTP answer is tried again, at most 3 attempts in all, with a pause; anything else is
 * final.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<Result<T>>): Promise<Result<T>> {
  let last: Failure | null = null;
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    if (n > 1) await sleep(retryDelayMs(n - 1));
    const result = await attempt(n);
    if (result.kind !== 'transport') return result;
    last = result;
  }
  return diverged(`no answer after ${MAX_ATTEMPTS} attempts (${last?.detail ?? 'unknown'})`);
}

/**
 * One try of a step. When an earlier try may have created it (its answer was lost, or the process died after
 * sending), the lookup comes first; a create refused as a second copy is settled by the lookup as well.
 */
async function attemptStep(env: StepEnv, step: CreateStep, maybeSent: boolean): Promise<Result<string>> {
  // The spec of this step's own kind: TypeScript cannot correlate the kind with the spec without the assertion.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc fails without it
  const spec = STEPS[step.kind] as {
    lookup(env: StepEnv, step: CreateStep): Promise<Result<string | null>>;
    create(env: StepEnv, step: CreateStep): ReturnType<(typeof STEPS)['zaak']['create']>;
  };
  try {
    if (maybeSent) {
      const found = await spec.lookup(env, step);
      if (found.kind !== 'ok') return found;
      if (found.value) return ok(found.value);
    }
    const created = await spec.create(env, step);
    if (created.kind !== 'duplicate') return created;
    const found = await spec.lookup(env, step);
    if (found.kind !== 'ok') return found;
    return found.value ? ok(found.value) : diverged(created.detail);
  } catch (err) {
    if (err instanceof MissingFact) return diverged(`step ${step.key} lacks ${err.message}`);
    throw err;
  }
}

const correlationOf = (c: MirrorCase, step: Step): string | null =>
  step.kind === 'besluit'
    ? c.correlation.besluit
    : step.kind === 'delete'
      ? c.correlation.delete
      : c.correlation.submit;

/**
 * Works the steps a case still owes, in order, recording each as it completes (ADR 0011). The first step
 * that cannot be completed ends the pass as a divergence; the reconciler continues from there later.
 */
export async function mirrorCase(ctx: MirrorContext, c: MirrorCase): Promise<CaseOutcome> {
  const planned = plannedSteps({
    documentIds: c.application?.documents.map((d) => d.documentId) ?? [],
    decided: c.application?.besluit != null,
    deleteRequested: c.deleteRequested,
  });
  const todo = remainingSteps(planned, new Set(c.recorded.keys()));
  if (todo[0]?.kind === 'delete') return deleteZaak(ctx, c, todo[0]);
  if (!c.application)
    return { kind: 'diverged', step: 'zaak', detail: 'the application is gone', correlationId: c.correlation.submit };
  if (todo.length === 0) return { kind: 'complete' };
  const types = await withRetries(() => ctx.mirror.catalog.types());
  if (types.kind !== 'ok')
    return { kind: 'diverged', step: 'catalogus', detail: types.detail, correlationId: correlationOf(c, todo[0]!) };
  const env: StepEnv = {
    zgw: ctx.mirror.zgw,
    target: ctx.mirror.target,
    types: types.value,
    c,
    content: contentLoader(ctx, c),
  };
  // Only the first step owed may have been sent by an earlier claim; a retry in this pass knows it sent.
  let uncertain = c.attempts > 1;
  for (const step of todo as CreateStep[]) {
    const maybeSent = uncertain;
    let result: Result<string>;
    try {
      result = await withRetries((n) => attemptStep(env, step, maybeSent || n > 1));
    } catch (err) {
      // Not the case system's doing: what is recorded stays, and the case continues from this step later.
      if (err instanceof DocumentsNotReady) return { kind: 'postponed', detail: err.message.slice(0, 300) };
      throw err;
    }
    uncertain = false;
    if (result.kind !== 'ok')
      return { kind: 'diverged', step: step.key, detail: result.detail, correlationId: correlationOf(c, step) };
    await recordStep(ctx.db, c.referentie, step.key, result.value, ctx.mirror.leaseMs);
    c.recorded.set(step.key, result.value);
    if (step.kind === 'zaak') c.zaakUrl = result.value;
  }
  return { kind: 'complete' };
}

/** An admin delete (ADR 0008): the zaak by its recorded URL or its identificatie; none, or already gone, is done. */
async function deleteZaak(ctx: MirrorContext, c: MirrorCase, step: Step): Promise<CaseOutcome> {
  const fail = (detail: string): CaseOutcome => ({
    kind: 'diverged',
    step: step.key,
    detail,
    correlationId: correlationOf(c, step),
  });
  let zaakUrl = c.zaakUrl;
  if (!zaakUrl) {
    const env = { zgw: ctx.mirror.zgw, target: ctx.mirror.target, c } as StepEnv;
    const found = await withRetries(() => STEPS.zaak.lookup(env, { kind: 'zaak', key: 'zaak' }));
    if (found.kind !== 'ok') return fail(found.detail);
    if (!found.value) return { kind: 'complete' };
    zaakUrl = found.value;
  }
  const url = zaakUrl;
  const deleted = await withRetries<string>(async () => {
    const answer = await ctx.mirror.zgw.call('DELETE', url, SYSTEM);
    if (answer.kind === 'transport') return answer;
    // Gone already (an earlier try whose answer was lost, or removed in the case system itself) is done.
    return answer.status === 204 || answer.status === 404 ? ok(url) : diverged(`zaak delete answered ${answer.status}`);
  });
  return deleted.kind === 'ok' ? { kind: 'complete' } : fail(deleted.detail);
}

/** The documents service is away, or has not linked the document yet (the link job is still owed): the case waits. */
class DocumentsNotReady extends Error {}

/**
 * A document step's content, fetched when its create needs it (a lookup that finds the object needs none) and
 * kept, base64-encoded, for that step's retries only: one document per case in memory at a time.
 */
function contentLoader(ctx: MirrorContext, c: MirrorCase): (documentId: string) => Promise<FileContent> {
  let held: { documentId: string; content: Promise<FileContent> } | null = null;
  return (documentId) => {
    if (held?.documentId !== documentId) held = { documentId, content: fetchContent(ctx, c, documentId) };
    return held.content;
  };
}

async function fetchContent(ctx: MirrorContext, c: MirrorCase, documentId: string): Promise<FileContent> {
  const applicationId = c.applicationId;
  if (!applicationId) throw new MissingFact('the application');
  let content;
  try {
    content = await ctx.documents.contentOf(applicationId, documentId);
  } catch (err) {
    throw new DocumentsNotReady(`documents service: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!content) {
    if (await linkPending(ctx.db, applicationId))
      throw new DocumentsNotReady(`document ${documentId} is not linked yet`);
    throw new MissingFact(
      `its content (the documents service has no document ${documentId} linked to the application)`,
    );
  }
  return {
    inhoud: content.bytes.toString('base64'),
    size: content.bytes.length,
    contentType: content.contentType,
    fileName: content.fileName,
  };
}
