import { DomainError, NotFoundError } from '@register/problem';
import { SUBJECTS, currentCorrelationId, enqueueEvent } from '@register/service-kit';
import * as repo from '../data-access/applications.repository';
import { insertLinkJob } from '../data-access/link-jobs.repository';
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
 * transaction commits Ingediend, the referentie, a link job and the outbox event. Linking happens only
 * after that commit (never on a Concept) and is retried from the job until confirmed (never lost).
 */
export async function submitApplication(deps: ApplicationsDeps, owner: string, id: string, req: SubmitRequest): Promise<SubmitResult> {
  const app = await repo.findOwned(deps.db, owner, id);
  if (!app) throw new NotFoundError('application');
  const type = app.type as ApplicationType;

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
  const submitted = await deps.db.transaction().execute(async (trx) => {
    const locked = await repo.findById(trx, id, true);
    if (!locked) throw new NotFoundError('application');
    if (locked.status_tag !== 'Concept') throw new DomainError('conflict', 'Only a Concept application can be submitted.');
    const now = deps.clock.now();
    const referentie = await repo.nextReferentie(trx, 'AV', yearAt(now));
    const row = await repo.markSubmitted(trx, id, { referentie, documentIds: digitaal.map((d) => d.documentId), submission: submissionOf(req), now });
    if (digitaal.length > 0) await insertLinkJob(trx, { applicationId: id, owner, documents: digitaal });
    await enqueueEvent(trx, SUBJECTS.applicationSubmitted, 'application.submitted', {
      applicationId: id,
      referentie,
      type,
      owner,
      documentIds: row.document_ids,
      submittedAt: now.toISOString(),
    }, currentCorrelationId());
    return row;
  });

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
