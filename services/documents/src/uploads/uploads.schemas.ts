import { z } from 'zod';

const blankIsAbsent = (v: unknown) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v);

export const categoriesQuery = z.object({
  wizardId: z.string().min(1),
  diplomaHerkomst: z.preprocess(blankIsAbsent, z.enum(['digitaal', 'handmatig']).optional()),
  taalvaardigheid: z.preprocess(blankIsAbsent, z.enum(['ja', 'nee']).optional()),
});

export const statusQuery = z.object({
  localIds: z
    .string()
    .transform((s) => s.split(',').map((id) => id.trim()).filter((id) => id !== ''))
    .pipe(z.array(z.string().max(64)).max(100)),
});

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

export const UploadCategoriesSchema = z.object({ categories: z.array(DocumentCategorySchema).nullable() }).meta({ id: 'UploadCategories' });

export const UploadStatusItemSchema = z
  .object({ localId: z.string().nullable(), status: z.string().nullable(), documentId: z.string().nullable() })
  .meta({ id: 'UploadStatusItem' });

export const UploadStatusSchema = z.object({ results: z.array(UploadStatusItemSchema).nullable() }).meta({ id: 'UploadStatus' });

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
    createdAt: z.string(),
  })
  .meta({ id: 'UploadedDocument' });

export const documentIdParam = z.object({ documentId: z.string() });
