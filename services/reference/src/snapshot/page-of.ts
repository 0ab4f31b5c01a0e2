import { z } from 'zod';
import { validationError } from '@register/problem';
import { decodeCursor, encodeCursor, nextLink, type PageQuery } from '@register/service-kit';

const position = z.object({ after: z.string() });

/**
 * ADR 0014 on a list served from memory: `limit` rows (all, at most 1000, without one) after the key a
 * cursor names, and `Link: rel="next"` while rows remain. A cursor naming a key no longer there is a 400.
 */
export function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  query: PageQuery,
  originalUrl: string,
): { body: T[]; headers?: Record<string, string> } {
  const cursor = decodeCursor(query.cursor, position);
  let start = 0;
  if (cursor) {
    const at = items.findIndex((item) => keyOf(item) === cursor.after);
    if (at < 0)
      throw validationError([
        { field: 'cursor', code: 'invalid_cursor', detail: 'The cursor names a row that is no longer there.' },
      ]);
    start = at + 1;
  }
  const page = items.slice(start, start + (query.limit ?? 1000));
  const last = page.at(-1);
  const more = start + page.length < items.length && last !== undefined;
  return more
    ? { body: page, headers: { Link: nextLink(originalUrl, encodeCursor({ after: keyOf(last) })) } }
    : { body: page };
}
