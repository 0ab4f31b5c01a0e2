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
const linkDocument = z.object({ documentId: z.string().max(128), categoryId: z.string().max(64) });

/**
 * The documents service's internal API, called by other services with a service identity. The rule that a
 * document may be linked (the caller's own, that category, not linked elsewhere, the case not deleted) lives
 * in documents alone: `link-check` answers it without linking, `links` links all or none.
 */
export const internal = {
  paths: {
    categories: '/internal/uploads/categories',
    linkCheck: '/internal/documents/link-check',
    link: '/internal/links',
    documentsOf: '/internal/applications/:applicationId/documents',
    confirmOrgLogo: '/internal/org-logos/:documentId/confirm',
  },
  categoriesQuery: z.object({
    wizardId: z.string().max(64),
    diplomaHerkomst: z.string().max(64).optional(),
    taalvaardigheid: z.string().max(64).optional(),
  }),
  /** The same body for a check and a link. */
  linkRequest: z.object({ applicationId: id, owner: id, documents: z.array(linkDocument).max(100) }),
  /** link-check: 200 with every refused document (empty: all may be linked); `field` is `documents[i].documentId`. */
  linkCheckResponse: z.object({ rejected: z.array(z.object({ field: z.string(), code: z.string(), detail: z.string() })) }),
  /** links: 200 `{ linked }` or 422 `links-rejected` naming each refused document; nothing is linked then. */
  linkResponse: z.object({ linked: z.number().int() }),
  documentsOfResponse: z.array(z.object({ documentId: z.string(), categoryId: z.string(), fileName: z.string() }).loose()),
  confirmOrgLogoResponse: z.object({ confirmed: z.boolean() }).loose(),
};
