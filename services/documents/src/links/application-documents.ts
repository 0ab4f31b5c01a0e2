import { NotFoundError } from '@register/problem';
import type { Context } from '../context';
import { ORGANISATIE_LOGO } from '../uploads/categories';
import { isDocumentId } from '../uploads/document';
import { findDocument } from '../uploads/documents.repository';
import { findLinkedTo } from './links.repository';
import type { LinkedDocument } from './links.schemas';

export async function documentsOfApplication(ctx: Context, applicationId: string): Promise<LinkedDocument[]> {
  const rows = await findLinkedTo(ctx.db, applicationId);
  return rows.map((r) => ({ documentId: r.id, categoryId: r.category_id, fileName: r.file_name }));
}

/** The letters service checks a template's logo: it must be an existing organisatie-logo upload. */
export async function confirmOrgLogo(ctx: Context, documentId: string): Promise<{ documentId: string }> {
  const row = isDocumentId(documentId) ? await findDocument(ctx.db, documentId) : undefined;
  if (!row || row.category_id !== ORGANISATIE_LOGO) throw new NotFoundError('document');
  return { documentId: row.id };
}
