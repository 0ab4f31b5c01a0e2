import type { Request, Response } from 'express';
import { PROBLEM_TYPES, type ProblemSlug } from './catalogue';
import type { FieldError } from './errors';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  correlationId: string | null;
  errors?: FieldError[];
  [extra: string]: unknown;
}

export function problemDocument(
  slug: ProblemSlug,
  input: { detail: string; instance: string; correlationId?: string | null; errors?: FieldError[] },
): ProblemDocument {
  const type = PROBLEM_TYPES[slug];
  const doc: ProblemDocument = {
    type: `/problems/${slug}`,
    title: type.title,
    status: type.status,
    detail: input.detail,
    instance: input.instance,
    correlationId: input.correlationId ?? null,
  };
  if (slug === 'validation' || (input.errors && input.errors.length > 0)) {
    doc.errors =
      input.errors && input.errors.length > 0 ? input.errors : [{ field: '', code: 'invalid', detail: input.detail }];
  }
  return doc;
}

/** Path of the request without the query string, as the original client sent it. */
export function instanceOf(req: Request): string {
  const url = req.originalUrl || req.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function correlationIdOf(res: Response): string | null {
  const id: unknown = res.locals['correlationId'];
  return typeof id === 'string' ? id : null;
}

export function sendProblem(
  req: Request,
  res: Response,
  slug: ProblemSlug,
  detail: string,
  errors?: FieldError[],
): void {
  const doc = problemDocument(slug, {
    detail,
    instance: instanceOf(req),
    correlationId: correlationIdOf(res),
    ...(errors ? { errors } : {}),
  });
  res.status(doc.status).type('application/problem+json').send(JSON.stringify(doc));
}

export function sendNotFound(res: Response): void {
  res.status(404).end();
}
