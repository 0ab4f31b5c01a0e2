import { recordProcessingIn } from '@register/service-kit';
import { randomUUID } from 'node:crypto';
import { DomainError, validationError } from '@register/problem';
import type { Context } from '../context';
import { maxBytesOf } from './categories';
import { detectContentType } from './content-type';
import { toUploadedDocument } from './document';
import { hasUnlinkedInSlot, insertDocument, isSingleSlotConflict } from './documents.repository';
import type { UploadedDocument, UploadRequest } from './uploads.schemas';

const conflict = () => new DomainError('conflict', 'This category already holds a document; delete it first.');

/** The file's content type, detected from its first bytes, if its category takes a file of that size and type. */
async function admittedContentType(category: UploadRequest['category'], file: UploadRequest['file']): Promise<string> {
  if (file.sizeBytes > maxBytesOf(category))
    throw new DomainError('payload-too-large', `The file is larger than ${category.maxSizeMb} MB.`);
  const contentType = await detectContentType(file.head);
  if (!contentType || !category.acceptedTypes.includes(contentType)) {
    throw new DomainError(
      'unsupported-media-type',
      `The file is ${contentType ?? 'of an unknown type'}; this category accepts ${category.acceptedTypes.join(', ')}.`,
    );
  }
  return contentType;
}

/** Checks a spooled file against its category (413, 415, 409), stores the bytes, then records the document. */
export async function uploadDocument(ctx: Context, owner: string, request: UploadRequest): Promise<UploadedDocument> {
  const { wizardId, category, file } = request;
  const contentType = await admittedContentType(category, file);
  const applicationId = request.applicationId ?? null;
  // ADR 0015: only the caller's own Concept application; nothing is stored for any other.
  if (applicationId !== null && !(await ctx.applications.uploadable(owner, applicationId))) {
    throw validationError([
      {
        field: 'applicationId',
        code: 'not-own-concept',
        detail: 'applicationId must be one of your own applications in Concept.',
      },
    ]);
  }
  // Checked before storing bytes to spare the work; the unique index below settles a race.
  if (
    !category.multiple &&
    (await hasUnlinkedInSlot(ctx.db, { owner, wizardId, categoryId: category.categoryId, applicationId }))
  )
    throw conflict();

  const objectKey = randomUUID();
  await ctx.storage.put(objectKey, file.path, file.sizeBytes, contentType);
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await insertDocument(trx, {
        id: randomUUID(),
        owner,
        local_id: request.localId ?? null,
        wizard_id: wizardId,
        category_id: category.categoryId,
        multiple: category.multiple,
        application_id: applicationId,
        file_name: file.originalName,
        content_type: contentType,
        size_bytes: file.sizeBytes,
        sha256: file.sha256,
        object_key: objectKey,
        linked_application_id: null,
        linked_at: null,
        created_at: ctx.clock.now(),
      });
      await recordProcessingIn(trx);
      return inserted;
    });
    return toUploadedDocument(row);
  } catch (err) {
    // No row, so the bytes must go too; if S3 refuses now, the sweeper removes the orphan later.
    await ctx.storage
      .remove(objectKey)
      .catch((removeErr: unknown) =>
        ctx.logger.warn({ err: removeErr, objectKey }, 'orphan object left for the sweeper'),
      );
    if (isSingleSlotConflict(err)) throw conflict();
    throw err;
  }
}
