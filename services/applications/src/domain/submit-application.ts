import { DomainError, NotFoundError } from '@register/problem';
import { SUBJECTS, currentCorrelationId, newEvent } from '@register/service-kit';
import * as repo from '../data-access/applications.repository';
import type { ApplicationsDeps } from './applications';
import { yearAt } from './clock';
import { categoryQuery, checkAnswers, digitalDocumentIds, evaluateSubmit, type ApplicationType, type SubmitRequest } from './submit-rules';
import { toStatus, type ApplicationStatus } from './views';

export interface SubmitResult {
  referentie: string;
  status: ApplicationStatus;
}

/**
 * Crash-safe submit (docs/decisions-applications.md): validate against the documents service, then ONE
 * statement (a transaction of its own) commits Ingediend, the referentie, a link job and the outbox event.
 * Linking happens only after that commit (never on a Concept) and is retried from the job until confirmed
 * (never lost).
 */
export async function submitApplication(deps: ApplicationsDeps, owner: string, id: string, req: SubmitRequest): Promise<SubmitResult> {
  const found = await repo.findOwnedType(deps.db, owner, id);
  if (!found) throw new NotFoundError('application');
  const type = found as ApplicationType;

  const answerErrors = checkAnswers(type, req);
  if (answerErrors.length > 0) throw new DomainError('validation', 'The submission is incomplete.', answerErrors);
  // Documents service unreachable here: 503 and nothing changed, the client simply retries.
  const query = categoryQuery(type, req);
  const [categories, ownedDocuments] = await Promise.all([
    deps.documents.categories(query.wizardId, { diplomaHerkomst: query.diplomaHerkomst }),
    deps.documents.lookup(owner, [...new Set(digitalDocumentIds(req))]),
  ]);
  const outcome = evaluateSubmit(type, req, { applicationId: id, scholingThreshold: deps.scholingThreshold, categories, ownedDocuments });
  if (!outcome.ok) throw new DomainError(outcome.slug, outcome.detail, outcome.errors);

  const digitaal = [...new Map(outcome.digitaal.map((d) => [d.documentId, d])).values()];
  const documentIds = digitaal.map((d) => d.documentId);
  const now = deps.clock.now();
  // The event's referentie is drawn by the statement itself (placeholder here).
  const envelope = newEvent('application.submitted', { applicationId: id, referentie: '', type, owner, documentIds, submittedAt: now.toISOString() }, currentCorrelationId(), now);
  const submitted = await repo.submitConcept(deps.db, {
    id,
    owner,
    referentiePrefix: `AV-${yearAt(now)}-`,
    documentIds,
    submission: submissionOf(req),
    now,
    linkJob: digitaal.length > 0 ? digitaal : null,
    event: { subject: SUBJECTS.applicationSubmitted, envelope },
  });
  if (!submitted) {
    // Nothing changed: another submit (or a decision) got there first, or the draft was deleted meanwhile.
    if (await repo.findOwnedType(deps.db, owner, id)) throw new DomainError('conflict', 'Only a Concept application can be submitted.');
    throw new NotFoundError('application');
  }

  // First attempt at once; if the documents service is down now, the job stays and the loop retries.
  if (digitaal.length > 0) await deps.linker.linkNow(id);
  return { referentie: submitted.referentie!, status: toStatus(submitted) };
}

/** The answers as submitted, kept for the case handler (no documents: those live in the documents service). */
function submissionOf(req: SubmitRequest) {
  return {
    diplomaHerkomst: req.diplomaHerkomst ?? null,
    uren: req.uren ?? null,
    aanvullendeScholing: req.aanvullendeScholing ?? null,
    scholingPunten: req.scholingPunten ?? null,
    documents: Array.isArray(req.documents) ? req.documents : [],
  };
}
