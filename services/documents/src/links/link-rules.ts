import type { FieldError } from '@register/problem';
import type { DocumentRow } from '../uploads/documents.table';
import type { LinkCheckRejection, LinkRequest } from './links.schemas';

/** Why a document (or the whole request) may not be linked. */
export type LinkRefusal =
  | { reason: 'application-deleted' }
  | {
      reason: 'unknown-document' | 'category-mismatch' | 'linked-elsewhere';
      index: number;
      documentId: string;
      categoryId: string | null;
    };

/** A document as the link rule needs it. */
export type LinkCandidate = Pick<DocumentRow, 'id' | 'category_id' | 'linked_application_id'>;

/**
 * The link rule, the only one (link-check asks it, the link enforces it): the application is not deleted,
 * and every document is the owner's (`owned` holds only those), in the named category, and not linked to
 * another application. A document already linked to this application passes, so a repeated link is allowed.
 */
export function linkRefusals(
  request: LinkRequest,
  owned: ReadonlyMap<string, LinkCandidate>,
  applicationDeleted: boolean,
): LinkRefusal[] {
  if (applicationDeleted) return [{ reason: 'application-deleted' }];
  return request.documents.flatMap(({ documentId, categoryId }, index): LinkRefusal[] => {
    const row = owned.get(documentId);
    if (!row) return [{ reason: 'unknown-document', index, documentId, categoryId: null }];
    if (row.category_id !== categoryId)
      return [{ reason: 'category-mismatch', index, documentId, categoryId: row.category_id }];
    if (row.linked_application_id !== null && row.linked_application_id !== request.applicationId)
      return [{ reason: 'linked-elsewhere', index, documentId, categoryId: null }];
    return [];
  });
}

/** A refusal as the link's 422 names it (`links-rejected`; its contract since the link route exists). */
export function linkErrorOf(refusal: LinkRefusal): FieldError {
  switch (refusal.reason) {
    case 'application-deleted':
      return { field: 'applicationId', code: 'application-deleted', detail: 'The application was deleted.' };
    case 'unknown-document':
      return {
        field: `documents.${refusal.index}.documentId`,
        code: refusal.reason,
        detail: `Document ${refusal.documentId} does not exist or is not the owner's.`,
      };
    case 'category-mismatch':
      return {
        field: `documents.${refusal.index}.categoryId`,
        code: refusal.reason,
        detail: `Document ${refusal.documentId} is in category ${refusal.categoryId}.`,
      };
    case 'linked-elsewhere':
      return {
        field: `documents.${refusal.index}.documentId`,
        code: refusal.reason,
        detail: `Document ${refusal.documentId} is linked to another application.`,
      };
  }
}

/**
 * Refusals as link-check answers them: per document, `documents[i].documentId`, which the submit of the
 * applications service answers 1:1 as its 400. Someone else's document, one in another category and one
 * linked elsewhere are one and the same `invalid-document` to the portal, as the submit always answered.
 */
export function checkRejectionsOf(refusals: LinkRefusal[], request: LinkRequest): LinkCheckRejection[] {
  return refusals.flatMap((refusal): LinkCheckRejection[] => {
    if (refusal.reason === 'application-deleted') {
      return request.documents.map((_d, i) => ({
        field: `documents[${i}].documentId`,
        code: 'application-deleted',
        detail: 'The application was deleted.',
      }));
    }
    return [
      {
        field: `documents[${refusal.index}].documentId`,
        code: 'invalid-document',
        detail: 'Not an upload of the caller in this category.',
      },
    ];
  });
}
