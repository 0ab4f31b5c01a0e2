import type { DocumentRow } from '../data-access/documents.table';

export type UploadStatusValue = 'ontvangen' | 'gekoppeld' | 'onbekend';

/** The 201 body of POST /api/v1/uploads (decisions §6), every field present. */
export interface UploadedDocument {
  documentId: string;
  localId: string | null;
  wizardId: string;
  categoryId: string;
  applicationId: string | null;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  status: UploadStatusValue;
  createdAt: string;
}

export function statusOf(row: Pick<DocumentRow, 'linked_application_id'>): UploadStatusValue {
  return row.linked_application_id === null ? 'ontvangen' : 'gekoppeld';
}

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
