import { z } from 'zod';
import { needs, own, routeTable, type ProblemType } from '../common';

export const routes = routeTable('documents', {
  categories: { method: 'GET', path: '/api/v1/uploads/categories', requires: own },
  upload: { method: 'POST', path: '/api/v1/uploads', requires: own },
  status: { method: 'GET', path: '/api/v1/uploads/status', requires: own },
  content: { method: 'GET', path: '/api/v1/uploads/:documentId/content', requires: needs('applications:own', 'CanBeoordelen') },
  deleteOwn: { method: 'DELETE', path: '/api/v1/uploads/:documentId', requires: own },
  adminDelete: { method: 'DELETE', path: '/api/v1/admin/uploads/:documentId', requires: needs('uploads:admin-delete') },
});

export const problems = {
  'links-rejected': { status: 422, title: 'Documents cannot be linked', description: "Internal API: not every document can be linked to the application (unknown, another owner's, another category, or linked elsewhere). Nothing was linked; `errors` names each document." },
} as const satisfies Record<string, ProblemType>;

const id = z.string().min(1).max(128);

/** The documents service's internal API, called by other services with a service identity. */
export const internal = {
  /** POST /internal/documents/lookup: which of these documents the owner has, with category and link. */
  lookupRequest: z.object({ owner: id, documentIds: z.array(z.string().max(128)).max(1000) }),
  lookupResponse: z.array(z.object({ documentId: z.string(), categoryId: z.string(), linkedApplicationId: z.string().nullable() })),
  /** POST /internal/documents/link: links all or none (decisions §5); 422 links-rejected names each refused document. */
  linkRequest: z.object({
    applicationId: id,
    owner: id,
    documents: z.array(z.object({ documentId: z.string().max(128), categoryId: z.string().max(64) })).max(100),
  }),
  /** GET /internal/applications/:applicationId/documents: the documents linked to an application. */
  linkedDocument: z.object({ documentId: z.string(), categoryId: z.string(), fileName: z.string(), contentType: z.string(), sizeBytes: z.number().int() }),
};
