import { DomainError, NotFoundError, validationError, type FieldError } from '@register/problem';
import { hasCapability, auditRole, type Identity } from '@register/authz';
import { SUBJECTS, currentCorrelationId, enqueueEvent } from '@register/service-kit';
import * as repo from '../data-access/applications.repository';
import type { ApplicationsDeps } from './applications';
import { toStatus, toSummary, type ApplicationStatus, type ApplicationSummary } from './views';

/** decisions §8: besluit value → status tag. */
export const BESLUITEN = { toekennen: 'Toegekend', afwijzen: 'Afgewezen', 'buiten-behandeling': 'BuitenBehandeling' } as const;
type Besluit = keyof typeof BESLUITEN;

/** canBesluiten = CanBeoordelen and state Ingediend; the besluit route enforces the same two checks. */
export function canBesluiten(identity: Identity | null, tag: string): boolean {
  return hasCapability(identity, 'CanBeoordelen') && tag === 'Ingediend';
}

/** Spec rule 3: resolve through the case listing, then to the local application by referentie. */
async function resolveCase(deps: ApplicationsDeps, caseId: string): Promise<repo.ApplicationRow> {
  const ref = await deps.cases.resolveSubmitted(caseId);
  const row = ref?.referentie ? await repo.findByReferentie(deps.db, ref.referentie) : undefined;
  if (!row) throw new NotFoundError('case');
  return row;
}

export async function beoordeling(deps: ApplicationsDeps, identity: Identity | null, caseId: string) {
  const row = await resolveCase(deps, caseId);
  const documenten = await deps.documents.documentsOf(row.id);
  return {
    aanvraag: toSummary(row, 'masked'),
    documenten: documenten.map((d) => ({ documentId: d.documentId, categoryId: d.categoryId, fileName: d.fileName })),
    decisions: { canBesluiten: canBesluiten(identity, row.status_tag) },
  };
}

function parseBesluit(body: { besluit?: unknown; toelichting?: unknown }): { besluit: Besluit; toelichting: string | null } {
  const errors: FieldError[] = [];
  const besluit = body.besluit;
  const known = typeof besluit === 'string' && Object.hasOwn(BESLUITEN, besluit);
  if (!known) errors.push({ field: 'besluit', code: 'invalid-value', detail: 'besluit must be toekennen, afwijzen or buiten-behandeling.' });
  const toelichting = typeof body.toelichting === 'string' ? body.toelichting : null;
  if (body.toelichting !== undefined && body.toelichting !== null && typeof body.toelichting !== 'string') {
    errors.push({ field: 'toelichting', code: 'invalid-type', detail: 'toelichting must be a string.' });
  } else if (known && besluit !== 'toekennen' && (toelichting ?? '').trim() === '') {
    errors.push({ field: 'toelichting', code: 'required', detail: 'afwijzen and buiten-behandeling need a toelichting.' });
  }
  if (errors.length > 0) throw validationError(errors);
  return { besluit: besluit as Besluit, toelichting };
}

export async function recordBesluit(deps: ApplicationsDeps, identity: Identity | null, caseId: string, body: { besluit?: unknown; toelichting?: unknown }): Promise<{ status: ApplicationStatus }> {
  const found = await resolveCase(deps, caseId);
  const { besluit, toelichting } = parseBesluit(body);
  const row = await deps.db.transaction().execute(async (trx) => {
    const locked = await repo.findById(trx, found.id, true);
    if (!locked) throw new NotFoundError('case');
    if (!canBesluiten(identity, locked.status_tag)) throw new DomainError('conflict', 'A besluit can only be recorded on an Ingediend application.');
    const now = deps.clock.now();
    const decided = await repo.markDecided(trx, locked.id, { tag: BESLUITEN[besluit], besluit, toelichting, now });
    await enqueueEvent(trx, SUBJECTS.applicationDecided, 'application.decided', {
      applicationId: decided.id,
      referentie: decided.referentie,
      type: decided.type,
      owner: decided.owner,
      besluit,
      status: decided.status_tag,
      decidedAt: now.toISOString(),
    }, currentCorrelationId());
    return decided;
  });
  return { status: toStatus(row) };
}

/**
 * Admin delete: removes the case (and its pending link job), tells the audit log and tells the documents
 * service (which removes the case's documents), in one transaction.
 */
export async function adminDeleteCase(deps: ApplicationsDeps, identity: Identity | null, caseId: string): Promise<void> {
  const ref = await deps.cases.resolveAny(caseId);
  if (!ref) throw new NotFoundError('case');
  await deps.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteApplication(trx, ref.applicationId))) throw new NotFoundError('case');
    await enqueueEvent(trx, SUBJECTS.audit('applications'), 'audit', { action: 'case:admin-delete', resource: 'case', decision: 'allow', role: auditRole(identity) }, currentCorrelationId());
    await enqueueEvent(trx, SUBJECTS.applicationDeleted, 'application.deleted', { applicationId: ref.applicationId }, currentCorrelationId());
  });
}

export type { ApplicationSummary };
