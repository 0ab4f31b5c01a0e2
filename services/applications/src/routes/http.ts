import type { Request, Response } from 'express';
import { requireIdentity } from '@register/authz';
import { pageQuery, nextLink } from '@register/service-kit';
import type { Page, PageRequest } from '../domain/case-source';

/** The owner of the caller's own data; the route table already demanded applications:own. */
export function ownerOf(res: Response): string {
  const identity = requireIdentity(res);
  return identity.practitioner!.subject;
}

/** decisions §14: limit 1..1000 (default at most 1000) and an opaque cursor; a bad value is 400. */
export function pageOf(req: Request): PageRequest {
  const q = pageQuery.parse(req.query);
  return { limit: q.limit ?? 1000, cursor: q.cursor };
}

export function sendPage<T>(req: Request, res: Response, page: Page<T>): void {
  if (page.nextCursor) res.setHeader('Link', nextLink(req.originalUrl, page.nextCursor));
  res.json(page.items);
}

/** A JSON body as an object (a missing or non-object body reads as empty, so the rules name the fields). */
export function bodyOf(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}
