import { DomainError, validationError, zodIssuesToFieldErrors } from '@register/problem';
import { findHostileJson } from '@register/service-kit';
import { findCategory, LARGEST_UPLOAD_BYTES, maxBytesOf, ORGANISATIE_LOGO, type Category } from './categories';
import type { ReceivedForm } from './upload-parser';
import { UploadRequest } from './uploads.schemas';

type Target = { wizardId?: unknown; categoryId?: unknown };

/** The category the fields name, if they name one; the organisation logo only with `orgtemplate:edit` (403). */
export function admitUpload(fields: Target, canEditOrgTemplate: boolean): Category | null {
  const category =
    typeof fields.wizardId === 'string' && typeof fields.categoryId === 'string'
      ? findCategory(fields.wizardId, fields.categoryId)
      : null;
  if (category?.categoryId === ORGANISATIE_LOGO && !canEditOrgTemplate) {
    throw new DomainError('forbidden', 'Uploading an organisation logo needs the capability orgtemplate:edit.');
  }
  return category;
}

/**
 * The byte limit of the file part, from the fields sent before it: the logo without capability is refused
 * (403) and an unknown category (400) before a byte is read; without both fields, the largest category's.
 */
export function fileLimitOf(fieldsSoFar: Target, canEditOrgTemplate: boolean): number {
  const category = admitUpload(fieldsSoFar, canEditOrgTemplate);
  if (category) return maxBytesOf(category);
  if (typeof fieldsSoFar.wizardId === 'string' && typeof fieldsSoFar.categoryId === 'string') {
    throw validationError(
      [
        {
          field: 'categoryId',
          code: 'unknown',
          detail: `Unknown category ${fieldsSoFar.categoryId} for wizard ${fieldsSoFar.wizardId}.`,
        },
      ],
      'The upload is invalid.',
    );
  }
  return LARGEST_UPLOAD_BYTES;
}

/**
 * The received form, parsed once by its schema; the logo's capability is decided first (403 before 400), as while
 * streaming. A text field with a NUL or a lone surrogate is a 400, as in a JSON body (ADR 0015).
 */
export function acceptUploadForm(form: ReceivedForm, canEditOrgTemplate: boolean): UploadRequest {
  admitUpload(form.fields, canEditOrgTemplate);
  const hostile = findHostileJson(form.fields);
  if (hostile) throw validationError([hostile], 'The upload is invalid.');
  const parsed = UploadRequest.safeParse({ ...form.fields, file: form.file });
  if (!parsed.success) throw validationError(zodIssuesToFieldErrors(parsed.error), 'The upload is invalid.');
  return parsed.data;
}
