import { rm } from 'node:fs/promises';
import { documents } from '@register/contracts';
import { hasCapability, type Identity } from '@register/authz';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { categoriesFor, LARGEST_UPLOAD_BYTES } from './categories';
import { deleteOwnDocument } from './delete-own-document';
import { uploadDocument } from './upload-document';
import { receiveUpload } from './upload-parser';
import { acceptUploadForm, fileLimitOf } from './upload-rules';
import { uploadStatus } from './upload-status';
import {
  DocumentIdParams,
  StatusQuery,
  UploadCategoriesSchema,
  UploadedDocumentSchema,
  UploadForm,
  UploadStatusSchema,
} from './uploads.schemas';

/** The route rules guarantee `applications:own`, which only a practitioner holds. */
const ownerOf = (identity: Identity | null): string => (identity?.practitioner as { subject: string }).subject;

const listUploadCategories = defineOperation({
  rule: documents.routes.categories,
  operationId: 'listUploadCategories',
  summary: 'List the document categories of a wizard',
  description:
    'The categories of `wizardId` (`intake`, `herregistratie`, `orgtemplate`) ' +
    'with `required` computed from the answers given: the diploma only when `diplomaHerkomst=handmatig`, ' +
    'the language proof only when a diploma is chosen and `taalvaardigheid=ja`, ' +
    'and nothing of intake before a diploma is chosen. An unknown wizard or answer is a 400.',
  query: documents.internal.categoriesQuery,
  responses: { 200: UploadCategoriesSchema },
  handle: (_ctx: Context, { query }) => ({ body: { categories: categoriesFor(query.wizardId, query) } }),
});

const uploadDocumentOperation = defineOperation({
  rule: documents.routes.upload,
  operationId: 'uploadDocument',
  summary: 'Upload a document',
  description:
    'multipart/form-data with `wizardId`, `categoryId`, optional `localId` (1–64 characters) ' +
    'and `applicationId`, and one file part `file`. Send the fields before the file: ' +
    'a logo without `orgtemplate:edit` (403), an unknown category (400) ' +
    'or a file over `maxSizeMb` MiB (413) is then refused before the bytes are read. ' +
    'The type is detected from the bytes (415 when the category does not accept it); ' +
    'a category that is not `multiple` holds one unlinked document (409). 201 with `Location` to the content.',
  multipart: UploadForm,
  responses: { 201: UploadedDocumentSchema },
  problems: [409, 413, 415, 503],
  handle: async (ctx: Context, { req, res, identity }) => {
    const canEditLogo = hasCapability(identity, 'orgtemplate:edit');
    // Fields sent before the file let us refuse (403/400) or cut off (413) before the bytes are read.
    const form = await receiveUpload(req, res, {
      tmpDir: ctx.config.UPLOAD_TMP_DIR,
      maxFileBytes: LARGEST_UPLOAD_BYTES,
      admit: (fields) => fileLimitOf(fields, canEditLogo),
    });
    try {
      const document = await uploadDocument(ctx, ownerOf(identity), acceptUploadForm(form, canEditLogo));
      return { status: 201, headers: { Location: `/api/v1/uploads/${document.documentId}/content` }, body: document };
    } finally {
      // Gone before the answer, whatever the outcome: the spool holds nothing once a request is done.
      if (form.file) await rm(form.file.path, { force: true });
    }
  },
});

const getUploadStatus = defineOperation({
  rule: documents.routes.status,
  operationId: 'getUploadStatus',
  summary: 'Poll uploads by the client’s own localIds',
  description:
    '`ontvangen` (stored), `gekoppeld` (linked to a submitted application) ' +
    'or `onbekend` (no document of the caller with that localId), in the order asked. At most 100 localIds.',
  query: StatusQuery,
  responses: { 200: UploadStatusSchema },
  handle: async (ctx: Context, { query, identity }) => ({
    body: { results: await uploadStatus(ctx, ownerOf(identity), query.localIds) },
  }),
});

const deleteOwnUpload = defineOperation({
  rule: documents.routes.deleteOwn,
  operationId: 'deleteOwnUpload',
  summary: 'Delete one of the caller’s uploads',
  description:
    'Removes the document and its bytes. Someone else’s document is a bare 404; ' +
    'a document linked to a submitted application is a 409.',
  params: DocumentIdParams,
  responses: { 204: null },
  problems: [409],
  handle: async (ctx: Context, { params, identity }) => {
    await deleteOwnDocument(ctx, ownerOf(identity), params.documentId);
    return {};
  },
});

/** Other services read the categories here (the applications service's submit rules). */
const internalUploadCategories = defineOperation({
  internal: { method: 'GET', path: documents.internal.paths.categories },
  operationId: 'internalUploadCategories',
  summary: 'List the document categories of a wizard (internal)',
  query: documents.internal.categoriesQuery,
  responses: { 200: UploadCategoriesSchema },
  handle: (_ctx: Context, { query }) => ({ body: { categories: categoriesFor(query.wizardId, query) } }),
});

export const uploadsRoutes = [
  listUploadCategories,
  uploadDocumentOperation,
  getUploadStatus,
  deleteOwnUpload,
  internalUploadCategories,
];
