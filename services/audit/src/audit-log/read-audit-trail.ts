import { z } from 'zod';
import { decodeCursor, encodeCursor } from '@register/service-kit';
import type { Context } from '../context';
import { listAuditRows, type AuditRow } from './audit-log.repository';
import type { AuditListQuery } from './audit-log.schemas';

/** ADR 0014: without a limit a page holds at most this many rows. */
export const MAX_PAGE = 1000;

/**
 * The last row's exact at_key (microseconds) and event id; a cursor with milliseconds, as a client may still
 * hold, is read too (ADR 0062). Year 0000 passes the ISO check but is no PostgreSQL date, so it would fail the
 * cast.
 */
const Position = z.tuple([z.iso.datetime().refine((at) => !at.startsWith('0000')), z.uuid()]);

export interface AuditPage {
  rows: AuditRow[];
  nextCursor: string | null;
}

/** Newest first, keyset-paged on (at, event_id) so concurrent inserts never shift a page. */
export async function readAuditTrail(ctx: Context, query: AuditListQuery): Promise<AuditPage> {
  const position = decodeCursor(query.cursor, Position);
  const limit = query.limit ?? MAX_PAGE;
  const after = position ? { at: position[0], eventId: position[1] } : null;
  const { action, correlationId, decision, from, to } = query;
  const rows = await listAuditRows(ctx.db, { action, correlationId, decision, from, to, after }, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor([last.at_key, last.event_id]) : null;
  return { rows: page, nextCursor };
}
