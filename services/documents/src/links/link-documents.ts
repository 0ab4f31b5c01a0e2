import type { Kysely, Transaction } from 'kysely';
import { DomainError, type FieldError } from '@register/problem';
import type { Context } from '../context';
import type { DocumentsDb } from '../database';
import { isDocumentId } from '../uploads/document';
import { checkRejectionsOf, linkErrorOf, linkRefusals } from './link-rules';
import { findOwnedDocuments, isDeletedApplication, linkDocuments, lockApplication } from './links.repository';
import type { LinkCheckRejection, LinkedDocument, LinkRequest } from './links.schemas';

/** All-or-nothing refusal of a link call; one error per refused document (422 `links-rejected`). */
export class LinkRejected extends DomainError {
  constructor(errors: FieldError[]) {
    super('links-rejected', 'Not every document can be linked to this application.', errors);
    this.name = 'LinkRejected';
  }
}

/** The owner's rows among the request's documents and the rule's refusals; `lock` holds the rows until commit. */
async function judgeLink(db: Kysely<DocumentsDb> | Transaction<DocumentsDb>, request: LinkRequest, lock: boolean) {
  const ids = [...new Set(request.documents.map((d) => d.documentId))].filter(isDocumentId);
  const owned = new Map((await findOwnedDocuments(db, request.owner, ids, lock)).map((r) => [r.id, r]));
  return { owned, refusals: linkRefusals(request, owned, await isDeletedApplication(db, request.applicationId)) };
}

/** The dry run of the link: what it would refuse, without linking (the applications service's submit asks it). */
export async function checkLink(ctx: Context, request: LinkRequest): Promise<LinkCheckRejection[]> {
  const { refusals } = await judgeLink(ctx.db, request, false);
  return checkRejectionsOf(refusals, request);
}

/**
 * Links the owner's documents to a submitted application, all or nothing, in one transaction. Repeating
 * the same call links nothing new and answers the same, so a submit that crashed after linking can retry.
 */
export async function linkToApplication(ctx: Context, request: LinkRequest): Promise<LinkedDocument[]> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
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
