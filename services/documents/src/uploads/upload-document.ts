import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DomainError, type FieldError } from '@register/problem';
import type { Logger } from '@register/service-kit';
import type { DocumentsDb } from '../data-access/documents.table';
import { hasUnlinkedInSlot, insertDocument, isSingleSlotConflict } from '../data-access/documents.repository';
import type { ObjectStorage } from '../data-access/object-storage';
import { findCategory, maxBytesOf, ORGANISATIE_LOGO } from './categories';
import { detectContentType } from './content-type';
import { toUploadedDocument, type UploadedDocument } from './document';

export interface UploadFields {
  wizardId: string | null;
  categoryId: string | null;
  localId: string | null;
  applicationId: string | null;
}

export interface UploadFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  head: Buffer;
  originalName: string;
}

export interface UploadDeps {
  db: Kysely<DocumentsDb>;
  storage: ObjectStorage;
  logger: Logger;
  clock: { now(): Date };
}

/** Ids the applications service hands out; we cannot see its database, so only the syntax is checked here. */
const APPLICATION_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const conflict = () => new DomainError('conflict', 'This category already holds a document; delete it first.');

/** The category an upload goes to, in enforcement order: 403 for the logo without capability, then 400. */
export function admitUpload(fields: Pick<UploadFields, 'wizardId' | 'categoryId'>, canEditOrgTemplate: boolean) {
  const category = fields.wizardId && fields.categoryId ? findCategory(fields.wizardId, fields.categoryId) : null;
  if (category?.categoryId === ORGANISATIE_LOGO && !canEditOrgTemplate) {
    throw new DomainError('forbidden', 'Uploading an organisation logo needs the capability orgtemplate:edit.');
  }
  return category;
}

function validate(fields: UploadFields, file: UploadFile | null, canEditOrgTemplate: boolean) {
  const category = admitUpload(fields, canEditOrgTemplate);
  const errors: FieldError[] = [];
  if (!fields.wizardId) errors.push({ field: 'wizardId', code: 'required', detail: 'wizardId is required.' });
  if (!fields.categoryId) errors.push({ field: 'categoryId', code: 'required', detail: 'categoryId is required.' });
  else if (fields.wizardId && !category) errors.push({ field: 'categoryId', code: 'unknown', detail: `Unknown category ${fields.categoryId} for wizard ${fields.wizardId}.` });
  if (fields.localId !== null && (fields.localId.length === 0 || fields.localId.length > 64)) errors.push({ field: 'localId', code: 'too_long', detail: 'localId has 1 to 64 characters.' });
  if (fields.applicationId !== null && !APPLICATION_ID.test(fields.applicationId)) errors.push({ field: 'applicationId', code: 'invalid', detail: 'applicationId is not a valid id.' });
  if (!file) errors.push({ field: 'file', code: 'required', detail: 'One file part named file is required.' });
  else if (file.sizeBytes === 0) errors.push({ field: 'file', code: 'empty', detail: 'The file is empty.' });
  if (errors.length > 0 || !category || !file) throw new DomainError('validation', 'The upload is invalid.', errors);
  return { category, file };
}

/** Validates a spooled file against its category, stores the bytes, then records the document. */
export async function uploadDocument(deps: UploadDeps, owner: string, fields: UploadFields, spooled: UploadFile | null, canEditOrgTemplate: boolean): Promise<UploadedDocument> {
  const { category, file } = validate(fields, spooled, canEditOrgTemplate);
  if (file.sizeBytes > maxBytesOf(category)) throw new DomainError('payload-too-large', `The file is larger than ${category.maxSizeMb} MB.`);
  const contentType = await detectContentType(file.head);
  if (!contentType || !category.acceptedTypes.includes(contentType)) {
    throw new DomainError('unsupported-media-type', `The file is ${contentType ?? 'of an unknown type'}; this category accepts ${category.acceptedTypes.join(', ')}.`);
  }
  const wizardId = fields.wizardId as string;
  const slot = { owner, wizardId, categoryId: category.categoryId, applicationId: fields.applicationId };
  // Checked before storing bytes to spare the work; the unique index below settles a race.
  if (!category.multiple && (await hasUnlinkedInSlot(deps.db, slot))) throw conflict();

  const objectKey = randomUUID();
  await deps.storage.put(objectKey, file.path, file.sizeBytes, contentType);
  try {
    const row = await insertDocument(deps.db, {
      id: randomUUID(),
      owner,
      local_id: fields.localId,
      wizard_id: wizardId,
      category_id: category.categoryId,
      multiple: category.multiple,
      application_id: fields.applicationId,
      file_name: file.originalName.slice(0, 255),
      content_type: contentType,
      size_bytes: file.sizeBytes,
      sha256: file.sha256,
      object_key: objectKey,
      linked_application_id: null,
      linked_at: null,
      created_at: deps.clock.now(),
    });
    return toUploadedDocument(row);
  } catch (err) {
    // No row, so the bytes must go too; if S3 refuses now, the sweeper removes the orphan later.
    await deps.storage.remove(objectKey).catch((removeErr: unknown) => deps.logger.warn({ err: removeErr, objectKey }, 'orphan object left for the sweeper'));
    if (isSingleSlotConflict(err)) throw conflict();
    throw err;
  }
}
