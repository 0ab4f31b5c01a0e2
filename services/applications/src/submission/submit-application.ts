import { applications } from '@register/contracts';
import { DomainError, NotFoundError } from '@register/problem';
import { currentCorrelationId, eventRow, outboxRowsFrom, processingRowsOwed } from '@register/service-kit';
import type { ApplicationType } from '../cases/application.schemas';
import { toStatus } from '../cases/application-views';
import { submitOwed } from '../case-mirror/case-mirror.repository';
import type { Context } from '../context';
import { LEASE_MS, linkNow } from '../document-linking/link-documents';
import { linkJobOwed, type LinkJobWork } from '../document-linking/link-jobs.repository';
import type { DocumentLinkRef } from '../document-linking/link-jobs.table';
import { referentiePrefix } from './referentie';
import type { SubmitApplicationResponse, SubmitRequest } from './submission.schemas';
import { SUBMITTED, findOwnedType, submitConcept, type SubmittedRow } from './submission.repository';
import { evaluateSubmit, type FactsQuery, type SubmitFacts } from './submit-rules';

/** The application a submit is about: the caller's own, with its type (the rules depend on it). */
export interface Submittable {
  id: string;
  owner: string;
  type: ApplicationType;
}

export async function requireSubmittable(ctx: Context, owner: string, id: string): Promise<Submittable> {
  const type = await findOwnedType(ctx.db, owner, id);
  if (!type) throw new NotFoundError('application');
  return { id, owner, type };
}

/**
 * Crash-safe submit (ADR 0059): check the rules with the documents service, then ONE statement commits
 * Ingediend with its referentie, the link job, the mirror's record and the outbox event, each part written by the
 * feature that owns its table (ADR 0253, 0278). Linking happens only after that commit (never on a Concept) and is
 * retried from the job until confirmed (never lost).
 */
export async function submitApplication(
  ctx: Context,
  application: Submittable,
  req: SubmitRequest,
): Promise<SubmitApplicationResponse> {
  // The documents service unreachable while checking: 503 and nothing changed; the client simply retries.
  const outcome = await evaluateSubmit(application.type, req, ctx.config.SCHOLING_THRESHOLD, (query) =>
    documentFacts(ctx, application, query),
  );
  if (!outcome.ok) throw new DomainError(outcome.slug, outcome.detail, outcome.errors);

  const digitaal = [...new Map(outcome.digitaal.map((d) => [d.documentId, d])).values()];
  const submitted = await commitSubmit(ctx, application, req, digitaal);
  if (!submitted) {
    // Nothing changed: another submit (or a decision) got there first, or the draft was deleted meanwhile.
    if (await findOwnedType(ctx.db, application.owner, application.id))
      throw new DomainError('conflict', 'Only a Concept application can be submitted.');
    throw new NotFoundError('application');
  }
  // First attempt at once; if the documents service is down now, the job stays and the loop retries.
  if (submitted.linkJob) await linkNow(ctx, submitted.linkJob);
  return { referentie: submitted.referentie, status: toStatus(submitted) };
}

/** Submit's statement: undefined, and nothing written, when the application is no longer a Concept. */
async function commitSubmit(
  ctx: Context,
  application: Submittable,
  req: SubmitRequest,
  digitaal: DocumentLinkRef[],
): Promise<(SubmittedRow & { linkJob: LinkJobWork | undefined }) | undefined> {
  const now = ctx.clock.now();
  const prefix = referentiePrefix('AV', now);
  const documentIds = digitaal.map((d) => d.documentId);
  const correlationId = currentCorrelationId();
  // The event is checked against its contract with a referentie of the drawn one's form; the statement puts in
  // the one it draws.
  const event = eventRow(
    applications.events.submitted,
    {
      applicationId: application.id,
      referentie: `${prefix}000000`,
      type: application.type,
      documentIds,
      submittedAt: now.toISOString(),
    },
    correlationId,
  );
  const row = await submitConcept(
    ctx.db,
    application.id,
    { referentiePrefix: prefix, documentIds, submission: submissionOf(req), now },
    {
      linkJob:
        digitaal.length > 0
          ? linkJobOwed(
              SUBMITTED,
              { applicationId: application.id, owner: application.owner, documents: digitaal },
              LEASE_MS,
            )
          : undefined,
      along: [
        // Never inside the request (ADR 0011): the mirror works the record once this statement committed.
        ...(ctx.mirror ? [submitOwed(SUBMITTED, { applicationId: application.id, correlationId })] : []),
        // The event and the submit's processing record (ADR 0182: logged with the submit or not at all, so nothing
        // for a submit that changed nothing).
        outboxRowsFrom(SUBMITTED, [{ ...event, fill: { 'data.referentie': 'referentie' } }, ...processingRowsOwed()]),
      ],
    },
  );
  if (!row) return undefined;
  const { linkAttempts, ...submitted } = row;
  const linkJob =
    linkAttempts === null
      ? undefined
      : { application_id: application.id, owner: application.owner, documents: digitaal, attempts: linkAttempts };
  return { ...submitted, linkJob };
}

async function documentFacts(ctx: Context, application: Submittable, query: FactsQuery): Promise<SubmitFacts> {
  const [categories, rejected] = await Promise.all([
    ctx.documents.categories(query.wizardId, { diplomaHerkomst: query.diplomaHerkomst }),
    // Without digital documents a submit needs no link check (and, with categories cached, no documents service).
    query.candidates.length > 0
      ? ctx.documents.checkLink({
          applicationId: application.id,
          owner: application.owner,
          documents: query.candidates,
        })
      : [],
  ]);
  return { categories, rejected };
}

/** The answers as submitted, kept for the case handler (no documents: those live in the documents service). */
function submissionOf(req: SubmitRequest) {
  return {
    diplomaHerkomst: req.diplomaHerkomst ?? null,
    uren: req.uren ?? null,
    aanvullendeScholing: req.aanvullendeScholing ?? null,
    scholingPunten: req.scholingPunten ?? null,
    documents: req.documents ?? [],
  };
}
