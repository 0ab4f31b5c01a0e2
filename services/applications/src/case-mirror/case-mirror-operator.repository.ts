import { sql } from 'kysely';
import type { Db } from '../database';

const interval = (ms: number) => `${Math.max(0, Math.round(ms))} milliseconds`;

/** How long a heal is kept: the console counts a day of them; a week leaves room for a look back. */
const HEALS_KEPT = '7 days';

/** A healed divergence (in the healing transaction); heals older than a week go at the same time. */
export async function recordHeal(db: Db, referentie: string): Promise<void> {
  await sql`WITH pruned AS (DELETE FROM case_mirror_heals WHERE healed_at < now() - ${HEALS_KEPT}::interval)
    INSERT INTO case_mirror_heals (referentie) VALUES (${referentie})`.execute(db);
}

export interface MirrorCounts {
  owed: number;
  diverged: number;
  pastWindow: number;
  healedLast24h: number;
}

/** The console's counts in one statement; `pastWindow` counts diverged cases the reconciler no longer takes. */
export async function mirrorCounts(db: Db, windowMs: number): Promise<MirrorCounts> {
  const { rows } = await sql<MirrorCounts>`SELECT
      count(*) FILTER (WHERE state = 'pending')::int AS "owed",
      count(*) FILTER (WHERE state = 'diverged')::int AS "diverged",
      count(*) FILTER (WHERE state = 'diverged' AND diverged_at <= now() - ${interval(windowMs)}::interval)::int AS "pastWindow",
      (SELECT count(*) FROM case_mirror_heals WHERE healed_at > now() - interval '24 hours')::int AS "healedLast24h"
    FROM case_mirrors`.execute(db);
  return rows[0] ?? { owed: 0, diverged: 0, pastWindow: 0, healedLast24h: 0 };
}

/** Diverged cases past the reconciler's window (the gauge the "past the window" alert reads). */
export async function countPastWindow(db: Db, windowMs: number): Promise<number> {
  return (await mirrorCounts(db, windowMs)).pastWindow;
}

export interface OwedCaseRow {
  referentie: string;
  state: 'pending' | 'diverged';
  step: string | null;
  attempts: number;
  last_error: string | null;
  diverged_at: Date | null;
  next_attempt_at: Date | null;
  past_window: boolean;
}

/** Every case that is owed or diverged, by referentie, after a referentie (keyset paging). */
export async function listOwedCases(
  db: Db,
  options: { after: string | null; limit: number; windowMs: number },
): Promise<OwedCaseRow[]> {
  const after = options.after === null ? sql`` : sql`AND m.referentie > ${options.after}`;
  const { rows } = await sql<OwedCaseRow>`SELECT m.referentie, m.state, m.attempts, m.last_error, m.diverged_at,
      m.next_attempt_at,
      (m.state = 'diverged' AND m.diverged_at <= now() - ${interval(options.windowMs)}::interval) AS past_window,
      (SELECT s.step FROM case_mirror_steps s WHERE s.referentie = m.referentie
        ORDER BY s.recorded_at DESC, s.step DESC LIMIT 1) AS step
    FROM case_mirrors m
    WHERE m.state IN ('pending', 'diverged') ${after}
    ORDER BY m.referentie LIMIT ${options.limit}`.execute(db);
  return rows;
}

/** What an operator's retry found: the case was made due, it owes nothing, or there is no such case. */
export type RetryOutcome =
  { kind: 'retried'; state: 'pending' | 'diverged' } | { kind: 'not-owed' } | { kind: 'unknown' };

/**
 * Makes an owed or diverged case due now (a claim's lease is left to run out: never two passes at once). The
 * attempts go back to at most 1, so a case that may have sent its next step still looks it up before creating
 * it; a divergence past the window gets a new window from now, so the reconciler takes it again.
 */
export async function makeDueNow(
  db: Db,
  referentie: string,
  options: { leaseMs: number; windowMs: number },
): Promise<RetryOutcome> {
  const { rows } = await sql<{ state: 'pending' | 'diverged' }>`UPDATE case_mirrors SET attempts = LEAST(attempts, 1),
      next_attempt_at = CASE WHEN next_attempt_at IS NULL OR next_attempt_at > now() + ${interval(options.leaseMs)}::interval
        THEN now() ELSE next_attempt_at END,
      diverged_at = CASE WHEN state = 'diverged' AND diverged_at <= now() - ${interval(options.windowMs)}::interval
        THEN now() ELSE diverged_at END
    WHERE referentie = ${referentie} AND state IN ('pending', 'diverged')
    RETURNING state`.execute(db);
  const row = rows[0];
  if (row) return { kind: 'retried', state: row.state };
  const known = await sql<{ n: number }>`SELECT (
      EXISTS (SELECT 1 FROM case_mirrors WHERE referentie = ${referentie})
      OR EXISTS (SELECT 1 FROM applications WHERE referentie = ${referentie}))::int AS n`.execute(db);
  return known.rows[0]?.n ? { kind: 'not-owed' } : { kind: 'unknown' };
}
