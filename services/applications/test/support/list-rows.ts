import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AppDatabase } from '../../src/database';
import type { Client, Reply } from './client';

/** A row as SQL writes it: `at` in PostgreSQL's microsecond text (UTC). */
export interface SqlRow {
  id: string;
  at: string;
}

/**
 * Rows around one millisecond of `ms` (e.g. `2001-02-03T04:05:06.789`): several inside it with distinct
 * microseconds, two sharing a timestamp (the id breaks the tie), one on each side of it.
 */
export function subMillisecondRows(ms: string): SqlRow[] {
  const before = new Date(new Date(`${ms}Z`).getTime() - 1).toISOString().slice(0, -1);
  const after = new Date(new Date(`${ms}Z`).getTime() + 1).toISOString().slice(0, -1);
  const ats = [`${before}500`, `${ms}001`, `${ms}002`, `${ms}002`, `${ms}003`, `${ms}999`, `${after}000`];
  return ats.map((at) => ({ id: randomUUID(), at: `${at}Z` }));
}

/** Inserts `Ingediend` applications of `owner` by SQL, created, updated and submitted at their `at`. */
export async function insertSubmitted(db: Kysely<AppDatabase>, owner: string, rows: SqlRow[]): Promise<void> {
  for (const r of rows) {
    await sql`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at, submitted_at)
      VALUES (${r.id}::uuid, ${owner}, 'intake', 'Ingediend', '[]'::jsonb, ${r.at}::timestamptz, ${r.at}::timestamptz,
      ${r.at}::timestamptz)`.execute(db);
  }
}

/** The order a list promises: by (at, id), uuids comparing as their lowercase hex does. */
export function ordered(rows: SqlRow[], direction: 'asc' | 'desc'): string[] {
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const sorted = [...rows].sort((a, b) => cmp(a.at, b.at) || cmp(a.id, b.id));
  return (direction === 'asc' ? sorted : sorted.reverse()).map((r) => r.id);
}

/** Every item of a list, following Link rel="next" from `path` to the end. */
export async function pageThrough<T>(c: Client, path: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next) {
    const res: Reply<T[]> = await c.get<T[]>(next);
    expect(res.status).toBe(200);
    items.push(...res.body);
    const link = res.headers.get('link');
    next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  }
  return items;
}

export const cursorOf = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
