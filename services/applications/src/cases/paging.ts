import { nextLink, type PageQuery } from '@register/service-kit';
import type { Page, PageRequest } from './case-source';

/** ADR 0014: limit 1..1000 (without one, at most 1000 rows) and an opaque cursor. */
export function pageRequest(query: PageQuery): PageRequest {
  return { limit: query.limit ?? 1000, cursor: query.cursor };
}

/** A list answer: the items as a plain array, and `Link: rel="next"` while rows remain. */
export function pageReply<T>(originalUrl: string, page: Page<T>): { body: T[]; headers?: Record<string, string> } {
  return page.nextCursor
    ? { body: page.items, headers: { Link: nextLink(originalUrl, page.nextCursor) } }
    : { body: page.items };
}
