import type { DocumentRow } from './documents.table';
import type { UploadedDocument } from './uploads.schemas';

/** An unlinked document is `ontvangen`; one linked to a submitted application `gekoppeld`. */
export function statusOf(row: Pick<DocumentRow, 'linked_application_id'>): 'ontvangen' | 'gekoppeld' {
  return row.linked_application_id === null ? 'ontvangen' : 'gekoppeld';
}

/** The 201 body of POST /api/v1/uploads (ADR 0006), every field present. */
export function toUploadedDocument(row: DocumentRow): UploadedDocument {
  return {
    documentId: row.id,
    localId: row.local_id,
    wizardId: row.wizard_id,
    categoryId: row.category_id,
    applicationId: row.application_id,
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    status: statusOf(row),
    createdAt: row.created_at.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Document ids are UUIDs; anything else cannot name a document (and must not reach a uuid column). */
export function isDocumentId(value: string): boolean {
  return UUID.test(value);
}
