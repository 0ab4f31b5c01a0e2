import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { auditRole, hasCapability, type Identity } from '@register/authz';
import { DomainError, NotFoundError } from '@register/problem';
import { enqueueEvent, SUBJECTS, type AuditEventData, type Logger } from '@register/service-kit';
import type { DocumentRow, DocumentsDb } from '../data-access/documents.table';
import { deleteDocument, findByLocalIds, findDocument, findDocumentForUpdate } from '../data-access/documents.repository';
import type { ObjectStorage } from '../data-access/object-storage';
import { isDocumentId, statusOf, type UploadStatusValue } from './document';

export interface ManageDeps {
  db: Kysely<DocumentsDb>;
  storage: ObjectStorage;
  logger: Logger;
}

export interface UploadStatusItem {
  localId: string;
  status: UploadStatusValue;
  documentId: string | null;
}

/** Polling by the client's own ids: another owner's localId is simply `onbekend`. */
export async function uploadStatus(db: Kysely<DocumentsDb>, owner: string, localIds: string[]): Promise<UploadStatusItem[]> {
  const found = await findByLocalIds(db, owner, [...new Set(localIds)]);
  return localIds.map((localId) => {
    const row = found.get(localId);
    return row ? { localId, status: statusOf(row), documentId: row.id } : { localId, status: 'onbekend', documentId: null };
  });
}

function ownerOf(identity: Identity): string | null {
  return identity.practitioner?.subject ?? null;
}

/** The owner reads their document; a beoordelaar reads one linked to a submitted application. Others: 404. */
export async function openContent(deps: ManageDeps, identity: Identity, documentId: string): Promise<{ row: DocumentRow; body: Readable }> {
  const row = isDocumentId(documentId) ? await findDocument(deps.db, documentId) : undefined;
  const allowed = row && (row.owner === ownerOf(identity) || (row.linked_application_id !== null && hasCapability(identity, 'CanBeoordelen')));
  if (!row || !allowed) throw new NotFoundError('document');
  return { row, body: await deps.storage.get(row.object_key) };
}

async function removeBytes(deps: ManageDeps, objectKey: string): Promise<void> {
  // The row is gone already; an object left behind is an orphan that the sweeper removes.
  await deps.storage.remove(objectKey).catch((err: unknown) => deps.logger.warn({ err, objectKey }, 'object not removed; left for the sweeper'));
}

/** Owner delete: others get 404, a linked document 409. */
export async function deleteOwnDocument(deps: ManageDeps, owner: string, documentId: string): Promise<void> {
  if (!isDocumentId(documentId)) throw new NotFoundError('document');
  const objectKey = await deps.db.transaction().execute(async (trx) => {
    const row = await findDocumentForUpdate(trx, documentId);
    if (!row || row.owner !== owner) throw new NotFoundError('document');
    if (row.linked_application_id !== null) throw new DomainError('conflict', 'The document is linked to a submitted application and can no longer be deleted.');
    await deleteDocument(trx, documentId);
    return row.object_key;
  });
  await removeBytes(deps, objectKey);
}

/** Admin delete: any document, also a linked one, with an audit event in the same transaction. */
export async function adminDeleteDocument(deps: ManageDeps, identity: Identity, documentId: string, correlationId: string | null): Promise<void> {
  if (!isDocumentId(documentId)) throw new NotFoundError('document');
  const objectKey = await deps.db.transaction().execute(async (trx) => {
    const row = await findDocumentForUpdate(trx, documentId);
    if (!row) throw new NotFoundError('document');
    await deleteDocument(trx, documentId);
    const audit: AuditEventData = { action: 'document:admin-delete', resource: `document/${documentId}`, decision: 'allow', role: auditRole(identity) };
    await enqueueEvent(trx, SUBJECTS.audit('documents'), 'audit', { ...audit }, correlationId);
    return row.object_key;
  });
  await removeBytes(deps, objectKey);
}
