import { z } from 'zod';
import { needs, own, routeTable, type ProblemType } from '../common';

export const routes = routeTable('documents', {
  categories: { method: 'GET', path: '/api/v1/uploads/categories', processing: 'none', requires: own },
  upload: { method: 'POST', path: '/api/v1/uploads', processing: 'aanvragen', requires: own },
  status: { method: 'GET', path: '/api/v1/uploads/status', processing: 'aanvragen', requires: own },
  content: {
    method: 'GET',
    path: '/api/v1/uploads/:documentId/content',
    processing: 'aanvragen',
    requires: needs('applications:own', 'CanBeoordelen'),
  },
  deleteOwn: { method: 'DELETE', path: '/api/v1/uploads/:documentId', processing: 'aanvragen', requires: own },
  adminDelete: {
    method: 'DELETE',
    path: '/api/v1/admin/uploads/:documentId',
    processing: 'beheer',
    requires: needs('uploads:admin-delete'),
  },
});

export const problems = {
  'links-rejected': {
    status: 422,
    title: 'Documents cannot be linked',
    description:
      "Internal API: not every document can be linked to the application (unknown, another owner's, " +
      'another category, or linked elsewhere). Nothing was linked; `errors` names each document.',
  },
} as const satisfies Record<string, ProblemType>;

const id = z.string().min(1).max(128);
const linkDocument = z.object({ documentId: z.string().max(128), categoryId: z.string().max(64) });
const linkedDocument = z.object({ documentId: z.string(), categoryId: z.string(), fileName: z.string() });

/** A blank answer is no answer; answers compare case-insensitively. */
const answer = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v: unknown) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
    z.enum(values).optional(),
  );

/**
 * The query of the categories (public and internal alike): the wizard and the answers that make a category
 * required (ADR 0006). An answer that is not one of its values is a 400.
 */
export const categoriesQuery = z.object({
  wizardId: z.string().min(1).max(64),
  diplomaHerkomst: answer(['digitaal', 'handmatig']),
  taalvaardigheid: answer(['ja', 'nee']),
});

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
    content: '/internal/applications/:applicationId/documents/:documentId/content',
    confirmOrgLogo: '/internal/org-logos/:documentId/confirm',
    orgLogoContent: '/internal/org-logos/:documentId/content',
  },
  categoriesQuery,
  /** The same body for a check and a link. */
  linkRequest: z.object({ applicationId: id, owner: id, documents: z.array(linkDocument).max(100) }),
  /** link-check: 200 with every refused document (empty: all may be linked); `field` is `documents[i].documentId`. */
  linkCheckResponse: z.object({
    rejected: z.array(z.object({ field: z.string(), code: z.string(), detail: z.string() })),
  }),
  /**
   * links: 200 with the linked documents (in request order, each once) or 422 `links-rejected` naming each refused one;
   * nothing is linked then.
   */
  linkResponse: z.object({ linked: z.array(linkedDocument) }),
  documentsOfResponse: z.array(linkedDocument.loose()),
  /**
   * content: 200 with the stored bytes of a document linked to that application, streamed, with its
   * `Content-Type`, `Content-Length` and `Content-Disposition: attachment; filename*=UTF-8''…` (the file name);
   * a document that is unknown or not linked to that application: a bare 404.
   */
  contentParams: z.object({ applicationId: z.string(), documentId: z.string() }),
  /** 200 when the id names an `organisatie-logo` upload; otherwise a bare 404. */
  confirmOrgLogoResponse: z.object({ documentId: z.string() }),
  /**
   * orgLogoContent: 200 with the stored bytes of an `organisatie-logo` upload (letters draws it); otherwise a bare 404.
   */
  orgLogoParams: z.object({ documentId: z.string() }),
};
