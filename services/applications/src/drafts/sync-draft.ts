import { DomainError, NotFoundError, validationError, type FieldError } from '@register/problem';
import { recordProcessingIn } from '@register/service-kit';
import { findById } from '../applications/application-reads';
import type { Context } from '../context';
import { updateDraft } from './drafts.repository';
import type { DraftSync } from './drafts.schemas';

export const MAX_DRAFT_BYTES = 256 * 1024;

/** ADR 0005, draft sync: the 400 rules, each naming its field. */
export function draftErrors(body: DraftSync): FieldError[] {
  const errors: FieldError[] = [];
  if (body.stepCount < 1)
    errors.push({ field: 'stepCount', code: 'too-small', detail: 'stepCount must be at least 1.' });
  if (body.stepIndex < 0)
    errors.push({ field: 'stepIndex', code: 'too-small', detail: 'stepIndex must be at least 0.' });
  else if (body.stepIndex >= body.stepCount)
    errors.push({ field: 'stepIndex', code: 'too-big', detail: 'stepIndex must be below stepCount.' });
  if (Buffer.byteLength(JSON.stringify(body.draft ?? null), 'utf8') > MAX_DRAFT_BYTES) {
    errors.push({ field: 'draft', code: 'too-big', detail: 'The serialized draft exceeds 256 KiB.' });
  }
  return errors;
}

/** The route found the caller's application (404 first); then the 400 rules, then 409 (ADR 0002 order). */
export async function syncDraft(ctx: Context, id: string, body: DraftSync): Promise<void> {
  const errors = draftErrors(body);
  if (errors.length > 0) throw validationError(errors);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findById(trx, id, true);
    if (!row) throw new NotFoundError('application');
    if (row.status_tag !== 'Concept') throw new DomainError('conflict', 'Only a Concept application can be edited.');
    await updateDraft(trx, id, {
      draft: body.draft,
      stepIndex: body.stepIndex,
      stepCount: body.stepCount,
      documentIds: body.documentIds ?? null,
      now: ctx.clock.now(),
    });
    await recordProcessingIn(trx);
  });
}
