import { z } from 'zod';
import { findCategory } from './categories';
import type { SpooledFile } from './upload-parser';

export const StatusQuery = z.object({
  localIds: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    )
    .pipe(z.array(z.string().max(64)).max(100))
    .meta({ description: 'Comma-separated localIds of the caller, at most 100.' }),
});

export const DocumentIdParams = z.object({ documentId: z.string() });

export const DocumentCategorySchema = z
  .object({
    categoryId: z.string().nullable(),
    label: z.string().nullable(),
    description: z.string().nullable(),
    required: z.boolean(),
    acceptedTypes: z.array(z.string()).nullable(),
    maxSizeMb: z.number().int(),
    multiple: z.boolean(),
    allowPostDelivery: z.boolean(),
  })
  .meta({ id: 'DocumentCategory' });
export type DocumentCategory = z.infer<typeof DocumentCategorySchema>;

export const UploadCategoriesSchema = z
  .object({ categories: z.array(DocumentCategorySchema).nullable() })
  .meta({ id: 'UploadCategories' });

export const UploadStatusItemSchema = z
  .object({ localId: z.string().nullable(), status: z.string().nullable(), documentId: z.string().nullable() })
  .meta({ id: 'UploadStatusItem' });
export type UploadStatusItem = z.infer<typeof UploadStatusItemSchema>;

export const UploadStatusSchema = z
  .object({ results: z.array(UploadStatusItemSchema).nullable() })
  .meta({ id: 'UploadStatus' });

export const UploadedDocumentSchema = z
  .object({
    documentId: z.string(),
    localId: z.string().nullable(),
    wizardId: z.string(),
    categoryId: z.string(),
    applicationId: z.string().nullable(),
    fileName: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    status: z.enum(['ontvangen', 'gekoppeld']),
    createdAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'UploadedDocument' });
export type UploadedDocument = z.infer<typeof UploadedDocumentSchema>;

/** Ids the applications service hands out; we cannot see its database, so only the syntax is checked here. */
const APPLICATION_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The text fields of the upload form, as the form's schema and its description share them. */
const uploadFields = {
  wizardId: z
    .string({ error: 'wizardId is required.' })
    .min(1, 'wizardId is required.')
    .meta({ description: '`intake`, `herregistratie` or `orgtemplate`.' }),
  categoryId: z
    .string({ error: 'categoryId is required.' })
    .min(1, 'categoryId is required.')
    .meta({ description: 'A category of the wizard (its maximal set).' }),
  localId: z
    .string()
    .min(1, 'localId has 1 to 64 characters.')
    .max(64, 'localId has 1 to 64 characters.')
    .optional()
    .meta({ description: 'The client’s own id; poll it with GET /api/v1/uploads/status.' }),
  applicationId: z
    .string()
    .regex(APPLICATION_ID, 'applicationId is not a valid id.')
    .optional()
    .meta({
      description:
        'The caller’s own application in Concept (checked with the ' +
        'applications service; any other is a 400 naming applicationId).',
    }),
};

/** The multipart form as the description shows it (Swagger UI's upload form). Send the fields before the file. */
export const UploadForm = z
  .object({ ...uploadFields, file: z.string().meta({ format: 'binary', description: 'Exactly one file part.' }) })
  .meta({ id: 'UploadForm' });

/** Control, formatting (a right-to-left override) and lone surrogate characters: never shown, so never kept. */
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
const MAX_FILE_NAME = 255;

/**
 * ADR 0015: a file name as case handlers are shown it. `inv\u202Efdp.exe` would read `invexe.pdf`; without
 * its hidden characters it reads as what it is. At most 255 characters, never a pair cut in two.
 */
export function shownFileName(name: string): string {
  return [...name.replace(UNSHOWN, '').trim()].slice(0, MAX_FILE_NAME).join('');
}

const spooledFile = z
  .custom<SpooledFile>((v) => typeof v === 'object' && v !== null, { error: 'One file part named file is required.' })
  .refine((f) => f.sizeBytes > 0, { error: 'The file is empty.' })
  .transform((f) => ({ ...f, originalName: shownFileName(f.originalName) }))
  .refine((f) => f.originalName !== '', { error: 'The file name holds no visible character.' });

/** The upload form once received (the fields multer parsed and the spooled file part), with the category it names. */
export const UploadRequest = z.object({ ...uploadFields, file: spooledFile }).transform((form, ctx) => {
  const category = findCategory(form.wizardId, form.categoryId);
  if (!category) {
    ctx.addIssue({
      code: 'custom',
      path: ['categoryId'],
      message: `Unknown category ${form.categoryId} for wizard ${form.wizardId}.`,
    });
    return z.NEVER;
  }
  return { ...form, category };
});
export type UploadRequest = z.output<typeof UploadRequest>;
