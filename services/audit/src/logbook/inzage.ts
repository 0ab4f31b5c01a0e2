import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import { VERWERKINGSACTIVITEITEN } from '@register/contracts';
import { decodeCursor, encodeCursor, type PageQuery } from '@register/service-kit';
import type { AuditDb } from '../database';

/** ADR 0014: without a limit a page holds at most this many records. */
const MAX_PAGE = 1000;
const Position = z.tuple([z.iso.datetime().refine((at) => !at.startsWith('0000')), z.uuid()]);
const endKey = sql<string>`to_char(end_time AT TIME ZONE 'UTC', ${sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')})`.as(
  'end_key',
);

export interface Verwerking {
  verwerkingsactiviteit: { id: string; naam: string };
  tijdstip: string;
  status: string;
  door: string;
}

const naamOf = (id: string): string => VERWERKINGSACTIVITEITEN.find((a) => a.id === id)?.naam ?? id;

/** One data subject's records newest first, keyset-paged on (end_time, record_id). */
export async function readVerwerkingen(
  db: Kysely<AuditDb>,
  pseudonym: string,
  query: PageQuery,
): Promise<{ items: Verwerking[]; nextCursor: string | null }> {
  const position = decodeCursor(query.cursor, Position);
  const limit = query.limit ?? MAX_PAGE;
  let q = db
    .selectFrom('logbook')
    .select(['record_id', 'end_time', 'processing_activity_id', 'status', 'door'])
    .select(endKey)
    .where('data_subject_id', '=', pseudonym);
  if (position) q = q.where(sql<boolean>`(end_time, record_id) < (${position[0]}::timestamptz, ${position[1]}::uuid)`);
  const rows = await q
    .orderBy('end_time', 'desc')
    .orderBy('record_id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      verwerkingsactiviteit: { id: r.processing_activity_id, naam: naamOf(r.processing_activity_id) },
      tijdstip: r.end_time.toISOString(),
      status: r.status,
      door: r.door,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor([last.end_key, last.record_id]) : null,
  };
}
