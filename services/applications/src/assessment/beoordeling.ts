import { hasCapability, type Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { toSummary } from '../cases/application-views';
import { findByReferentie, type ApplicationRow } from '../cases/applications.repository';
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

export async function beoordeling(
  ctx: Context,
  identity: Identity | null,
  row: ApplicationRow,
): Promise<BeoordelingView> {
  const documenten = await ctx.documents.documentsOf(row.id);
  return {
    aanvraag: toSummary(row, 'masked'),
    documenten: documenten.map((d) => ({ documentId: d.documentId, categoryId: d.categoryId, fileName: d.fileName })),
    decisions: { canBesluiten: canBesluiten(identity, row.status_tag) },
  };
}
