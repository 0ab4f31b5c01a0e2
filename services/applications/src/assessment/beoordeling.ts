import { assessesOwnCase, auditRole, hasCapability, type Identity, type RouteRule } from '@register/authz';
import { auditEvent } from '@register/contracts';
import { DomainError, NotFoundError } from '@register/problem';
import { concerns, currentCorrelationId, enqueue } from '@register/service-kit';
import { toSummary } from '../cases/application-views';
import { findByReferentie, type ApplicationRow } from '../applications/application-reads';
import type { Context } from '../context';
import type { BeoordelingView } from './assessment.schemas';

/** canBesluiten = CanBeoordelen and state Ingediend; the besluit route enforces the same two checks. */
export function canBesluiten(identity: Identity | null, tag: string): boolean {
  return hasCapability(identity, 'CanBeoordelen') && tag === 'Ingediend';
}

/** Spec rule 3: resolve through the case listing, then to the local application by referentie. */
export async function resolveCase(ctx: Context, caseId: string): Promise<ApplicationRow> {
  const ref = await ctx.cases.resolveSubmitted(caseId);
  const row = ref?.referentie ? await findByReferentie(ctx.db, ref.referentie) : undefined;
  if (!row) throw new NotFoundError('case');
  return row;
}

/**
 * The case a case handler opens or decides: refused (403, one audit row like the route's other denials) when its
 * owner is the caller's own practitioner identity.
 */
export async function resolveCaseFor(
  ctx: Context,
  identity: Identity | null,
  rule: RouteRule,
  caseId: string,
): Promise<ApplicationRow> {
  const row = await resolveCase(ctx, caseId);
  if (!assessesOwnCase(identity, row.owner)) return row;
  const denial = {
    action: rule.auditDenialAs ?? rule.path,
    resource: rule.path,
    decision: 'deny' as const,
    role: auditRole(identity),
  };
  await enqueue(ctx.db, auditEvent('applications'), denial, currentCorrelationId());
  throw new DomainError('forbidden', 'A case handler cannot open or decide their own application.');
}

export async function beoordeling(
  ctx: Context,
  identity: Identity | null,
  row: ApplicationRow,
): Promise<BeoordelingView> {
  concerns(row.owner);
  const documenten = await ctx.documents.documentsOf(row.id);
  return {
    aanvraag: toSummary(row, 'masked'),
    documenten: documenten.map((d) => ({ documentId: d.documentId, categoryId: d.categoryId, fileName: d.fileName })),
    decisions: { canBesluiten: canBesluiten(identity, row.status_tag) },
  };
}
