import { concerns } from '@register/service-kit';
import type { Readable } from 'node:stream';
import { hasCapability, type Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import type { Context } from '../context';
import { ORGANISATIE_LOGO } from '../uploads/categories';
import { isDocumentId } from '../uploads/document';
import { findDocument } from '../uploads/documents.repository';
import type { DocumentRow } from '../uploads/documents.table';

/** A row whose object a concurrent delete has just removed is as gone as the row: 404, not a 500. */
async function bytesOf(ctx: Context, row: DocumentRow): Promise<Readable> {
  const body = await ctx.storage.get(row.object_key);
  if (!body) throw new NotFoundError('document');
  return body;
}

/** The owner reads their document; a beoordelaar reads one linked to a submitted application. Others: 404. */
export async function openContent(
  ctx: Context,
  identity: Identity | null,
  documentId: string,
): Promise<{ row: DocumentRow; body: Readable }> {
  const row = isDocumentId(documentId) ? await findDocument(ctx.db, documentId) : undefined;
  const owner = identity?.practitioner?.subject ?? null;
  const allowed =
    row &&
    identity &&
    (row.owner === owner || (row.linked_application_id !== null && hasCapability(identity, 'CanBeoordelen')));
  if (!row || !allowed) throw new NotFoundError('document');
  concerns(row.owner);
  return { row, body: await bytesOf(ctx, row) };
}

/** A service reads a document linked to the application it names (the case mirror); anything else: 404. */
export async function openLinkedContent(
  ctx: Context,
  applicationId: string,
  documentId: string,
): Promise<{ row: DocumentRow; body: Readable }> {
  const row = isDocumentId(documentId) ? await findDocument(ctx.db, documentId) : undefined;
  if (!row || row.linked_application_id === null || row.linked_application_id !== applicationId)
    throw new NotFoundError('document');
  return { row, body: await bytesOf(ctx, row) };
}

/** A service reads an organisation logo (letters draws it on the letterhead); any other document: 404. */
export async function openOrgLogo(ctx: Context, documentId: string): Promise<{ row: DocumentRow; body: Readable }> {
  const row = isDocumentId(documentId) ? await findDocument(ctx.db, documentId) : undefined;
  if (!row || row.category_id !== ORGANISATIE_LOGO) throw new NotFoundError('document');
  return { row, body: await bytesOf(ctx, row) };
}
