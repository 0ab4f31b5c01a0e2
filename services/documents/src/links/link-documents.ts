import type { Kysely, Transaction } from 'kysely';
import { DomainError, NotFoundError, type FieldError } from '@register/problem';
import type { DocumentRow, DocumentsDb } from '../data-access/documents.table';
import { findDocument, findLinkedTo, findOwnedDocuments, isDeletedApplication, linkDocuments, lockApplication } from '../data-access/documents.repository';
import { ORGANISATIE_LOGO } from './categories';
import { isDocumentId } from './document';

export interface LookedUpDocument {
  documentId: string;
  categoryId: string;
  wizardId: string;
  fileName: string;
  linkedApplicationId: string | null;
}

export interface LinkedDocument {
  documentId: string;
  categoryId: string;
  fileName: string;
}

/** The owner's documents among `documentIds`; unknown and foreign ids are simply absent. */
export async function lookupDocuments(db: Kysely<DocumentsDb>, owner: string, documentIds: string[]): Promise<LookedUpDocument[]> {
  const rows = await findOwnedDocuments(db, owner, [...new Set(documentIds.filter(isDocumentId))]);
  return rows.map((r) => ({ documentId: r.id, categoryId: r.category_id, wizardId: r.wizard_id, fileName: r.file_name, linkedApplicationId: r.linked_application_id }));
}

/** Nothing was linked: at least one document cannot be linked (the internal contract answers 422). */
/** All-or-nothing refusal of a link call; one error per document. */
export class LinkRejected extends DomainError {
  constructor(errors: FieldError[]) {
    super('links-rejected', 'Not every document can be linked to this application.', errors);
    this.name = 'LinkRejected';
  }
}

export interface LinkRequest {
  applicationId: string;
  owner: string;
  documents: Array<{ documentId: string; categoryId: string }>;
}

/** Why a document (or the whole request) may not be linked. */
export type LinkRefusal =
  | { reason: 'application-deleted' }
  | { reason: 'unknown-document' | 'category-mismatch' | 'linked-elsewhere'; index: number; documentId: string; categoryId: string | null };

/** A document as the link rule needs it: the caller's own rows only. */
export type LinkCandidate = Pick<DocumentRow, 'id' | 'category_id' | 'linked_application_id'>;

/**
 * The link rule, the only one (link-check asks it, the link enforces it): the application is not deleted,
 * and every document is the owner's (`owned` holds only those), in the named category, and not linked to
 * another application. A document already linked to this application passes, so a repeated link is allowed.
 */
export function linkRefusals(request: LinkRequest, owned: ReadonlyMap<string, LinkCandidate>, applicationDeleted: boolean): LinkRefusal[] {
  if (applicationDeleted) return [{ reason: 'application-deleted' }];
  return request.documents.flatMap(({ documentId, categoryId }, index): LinkRefusal[] => {
    const row = owned.get(documentId);
    if (!row) return [{ reason: 'unknown-document', index, documentId, categoryId: null }];
    if (row.category_id !== categoryId) return [{ reason: 'category-mismatch', index, documentId, categoryId: row.category_id }];
    if (row.linked_application_id !== null && row.linked_application_id !== request.applicationId) return [{ reason: 'linked-elsewhere', index, documentId, categoryId: null }];
    return [];
  });
}

/** The rows and the refusals of one request; `lock` holds the rows and the application until commit. */
async function judgeLink(db: Kysely<DocumentsDb> | Transaction<DocumentsDb>, request: LinkRequest, lock: boolean) {
  const ids = [...new Set(request.documents.map((d) => d.documentId))].filter(isDocumentId);
  const rows = await findOwnedDocuments(db, request.owner, ids, lock);
  const owned = new Map(rows.map((r) => [r.id, r]));
  return { owned, refusals: linkRefusals(request, owned, await isDeletedApplication(db, request.applicationId)) };
}

/** The 422 errors of a refused link (its contract since the link route exists). */
function linkErrorOf(refusal: LinkRefusal): FieldError {
  switch (refusal.reason) {
    case 'application-deleted':
      return { field: 'applicationId', code: 'application-deleted', detail: 'The application was deleted.' };
    case 'unknown-document':
      return { field: `documents.${refusal.index}.documentId`, code: refusal.reason, detail: `Document ${refusal.documentId} does not exist or is not the owner's.` };
    case 'category-mismatch':
      return { field: `documents.${refusal.index}.categoryId`, code: refusal.reason, detail: `Document ${refusal.documentId} is in category ${refusal.categoryId}.` };
    case 'linked-elsewhere':
      return { field: `documents.${refusal.index}.documentId`, code: refusal.reason, detail: `Document ${refusal.documentId} is linked to another application.` };
  }
}

export interface LinkCheckRejection {
  field: string;
  code: string;
  detail: string;
}

/**
 * The dry run of the link, for the applications service's submit: every document that would be refused, as
 * `documents[i].documentId` errors that the submit answers 1:1 (400). A document of someone else, in another
 * category or linked elsewhere is one and the same `invalid-document` to the portal, as it was.
 */
export async function checkLink(db: Kysely<DocumentsDb>, request: LinkRequest): Promise<LinkCheckRejection[]> {
  const { refusals } = await judgeLink(db, request, false);
  return refusals.flatMap((refusal): LinkCheckRejection[] => {
    if (refusal.reason === 'application-deleted') {
      return request.documents.map((_d, i) => ({ field: `documents[${i}].documentId`, code: 'application-deleted', detail: 'The application was deleted.' }));
    }
    return [{ field: `documents[${refusal.index}].documentId`, code: 'invalid-document', detail: 'Not an upload of the caller in this category.' }];
  });
}

/**
 * Links the owner's documents to a submitted application, all or nothing, in one transaction. Repeating
 * the same call links nothing new and answers the same, so a submit that crashed after linking can retry.
 */
export async function linkToApplication(db: Kysely<DocumentsDb>, request: LinkRequest, now: Date): Promise<LinkedDocument[]> {
  return db.transaction().execute(async (trx) => {
    await lockApplication(trx, request.applicationId);
    // Rows are locked so a concurrent link to another application cannot slip in between check and update.
    const { owned, refusals } = await judgeLink(trx, request, true);
    if (refusals.length > 0) throw new LinkRejected(refusals.map(linkErrorOf));
    await linkDocuments(trx, [...owned.keys()], request.applicationId, now);
    return [...new Set(request.documents.map((d) => d.documentId))].map((id) => {
      const row = owned.get(id)!;
      return { documentId: row.id, categoryId: row.category_id, fileName: row.file_name };
    });
  });
}

export async function documentsOfApplication(db: Kysely<DocumentsDb>, applicationId: string): Promise<LinkedDocument[]> {
  const rows = await findLinkedTo(db, applicationId);
  return rows.map((r) => ({ documentId: r.id, categoryId: r.category_id, fileName: r.file_name }));
}

/** The letters service checks a template's logo: it must be an existing organisatie-logo upload. */
export async function confirmOrgLogo(db: Kysely<DocumentsDb>, documentId: string): Promise<{ documentId: string }> {
  const row = isDocumentId(documentId) ? await findDocument(db, documentId) : undefined;
  if (!row || row.category_id !== ORGANISATIE_LOGO) throw new NotFoundError('document');
  return { documentId: row.id };
}
