import type { Kysely } from 'kysely';
import { DomainError, NotFoundError, type FieldError } from '@register/problem';
import type { DocumentsDb } from '../data-access/documents.table';
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

/**
 * Links the owner's documents to a submitted application, all or nothing, in one transaction. Repeating
 * the same call links nothing new and answers the same, so a submit that crashed after linking can retry.
 */
export async function linkToApplication(db: Kysely<DocumentsDb>, request: LinkRequest, now: Date): Promise<LinkedDocument[]> {
  const wanted = new Map(request.documents.map((d) => [d.documentId, d.categoryId]));
  return db.transaction().execute(async (trx) => {
    await lockApplication(trx, request.applicationId);
    if (await isDeletedApplication(trx, request.applicationId)) {
      throw new LinkRejected([{ field: 'applicationId', code: 'application-deleted', detail: 'The application was deleted.' }]);
    }
    // Rows are locked so a concurrent link to another application cannot slip in between check and update.
    const rows = await findOwnedDocuments(trx, request.owner, [...wanted.keys()].filter(isDocumentId), true);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const errors: FieldError[] = [];
    request.documents.forEach(({ documentId, categoryId }, i) => {
      const row = byId.get(documentId);
      const field = `documents.${i}.documentId`;
      if (!row) errors.push({ field, code: 'unknown-document', detail: `Document ${documentId} does not exist or is not the owner's.` });
      else if (row.category_id !== categoryId) errors.push({ field: `documents.${i}.categoryId`, code: 'category-mismatch', detail: `Document ${documentId} is in category ${row.category_id}.` });
      else if (row.linked_application_id !== null && row.linked_application_id !== request.applicationId) {
        errors.push({ field, code: 'linked-elsewhere', detail: `Document ${documentId} is linked to another application.` });
      }
    });
    if (errors.length > 0) throw new LinkRejected(errors);
    await linkDocuments(trx, [...byId.keys()], request.applicationId, now);
    return [...wanted.keys()].map((id) => {
      const row = byId.get(id)!;
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
