import { z } from 'zod';
import { validationError } from '@register/problem';

/** ADR 0014: optional limit (1..1000) and an opaque cursor; at most 1000 rows without limit. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The position a cursor names; null without a cursor; a cursor this service did not issue is a 400. */
export function decodeCursor<T>(cursor: string | undefined, schema: z.ZodType<T>): T | null {
  if (cursor === undefined) return null;
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw validationError([
      { field: 'cursor', code: 'invalid_cursor', detail: 'The cursor is not one this service issued.' },
    ]);
  }
}

/** Link header value for the next page, keeping the other query parameters of the request. */
export function nextLink(originalUrl: string, cursor: string): string {
  const url = new URL(originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}
