import { z } from 'zod';

const id = z.string().min(1).max(128);

export const lookupBody = z.object({ owner: id, documentIds: z.array(z.string().max(128)).max(1000) });

export const linkBody = z.object({
  applicationId: id,
  owner: id,
  documents: z.array(z.object({ documentId: z.string().max(128), categoryId: z.string().max(64) })).max(100),
});

