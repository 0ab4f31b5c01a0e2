import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { claimLeased, currentTraceparent } from '@register/service-kit';
import type { Db } from '../database';
import type { CaseMirrorsTable } from './case-mirror.table';
import type { MirrorCase } from './mirror-case.types';
import { uuidOf } from './zgw-read';

export type CaseMirrorRow = Selectable<CaseMirrorsTable>;

const CASE_MIRRORS = {
  table: 'case_mirrors',
  key: 'referentie',
  dueColumn: 'next_attempt_at',
  attemptsColumn: 'attempts',
};
const interval = (ms: number) => `${Math.max(0, Math.round(ms))} milliseconds`;

/**
 * Claims due cases of one state for a lease (the kit's claimLeased: FOR UPDATE SKIP LOCKED, attempts + 1).
 * The reconciler takes only divergences younger than its window (ADR 0011: 48 hours).
 */
export async function claimCases(
  db: Db,
  state: 'pending' | 'diverged',
  options: { limit: number; leaseMs: number; windowMs?: number; referentie?: string },
): Promise<CaseMirrorRow[]> {
  const only = options.referentie ? sql` AND referentie = ${options.referentie}` : sql``;
  const where =
    state === 'diverged'
      ? sql`state = 'diverged' AND diverged_at > now() - ${interval(options.windowMs ?? 0)}::interval${only}`
      : sql`state = 'pending'${only}`;
  return claimLeased<CaseMirrorRow>(db as Kysely<unknown>, CASE_MIRRORS, {
    limit: options.limit,
    leaseMs: options.leaseMs,
    where,
  });
}

interface FactsRow {
  referentie: string;
  owner: string | null;
  type: string | null;
  submitted_at: Date | null;
  document_ids: string[] | null;
  submission: { documents?: Array<{ documentId?: string | null; categoryId?: string | null }> } | null;
  besluit: string | null;
  toelichting: string | null;
  decided_at: Date | null;
}

/** The claimed rows with their application's facts and the steps recorded so far (two queries for the batch). */
export async function loadCases(db: Db, rows: CaseMirrorRow[]): Promise<MirrorCase[]> {
  if (rows.length === 0) return [];
  const referenties = rows.map((r) => r.referentie);
  const facts = await sql<FactsRow>`
    SELECT m.referentie, a.owner, a.type, a.submitted_at, a.document_ids, a.submission, a.besluit, a.toelichting,
    a.decided_at
    FROM case_mirrors m LEFT JOIN applications a ON a.id = m.application_id
    WHERE m.referentie = ANY(${referenties}::text[])`.execute(db);
  const steps = await db
    .selectFrom('case_mirror_steps')
    .select(['referentie', 'step', 'url'])
    .where('referentie', 'in', referenties)
    .execute();
  const factsOf = new Map(facts.rows.map((f) => [f.referentie, f]));
  return rows.map((row) => {
    const f = factsOf.get(row.referentie);
    const categories = new Map((f?.submission?.documents ?? []).map((d) => [d.documentId ?? '', d.categoryId ?? null]));
    return {
      referentie: row.referentie,
      applicationId: row.application_id,
      state: row.state,
      workVersion: row.work_version,
      attempts: row.attempts,
      zaakUrl: row.zaak_url,
      application:
        f && f.owner !== null && f.submitted_at !== null
          ? {
              owner: f.owner,
              type: f.type ?? 'intake',
              submittedAt: f.submitted_at,
              documents: (f.document_ids ?? []).map((documentId) => ({
                documentId,
                categoryId: categories.get(documentId) ?? null,
              })),
              besluit: f.besluit,
              toelichting: f.toelichting,
              decidedAt: f.decided_at,
            }
          : null,
      besluitBy: row.besluit_by,
      deleteRequested: row.delete_requested,
      correlation: {
        submit: row.submit_correlation_id,
        besluit: row.besluit_correlation_id,
        delete: row.delete_correlation_id,
        diverged: row.diverged_correlation_id,
      },
      traceparent: row.traceparent,
      recorded: new Map(steps.filter((s) => s.referentie === row.referentie).map((s) => [s.step, s.url])),
    };
  });
}

/** A completed step, once (a repeat changes nothing), and the lease renewed for the next one: one statement. */
export async function recordStep(
  db: Db,
  referentie: string,
  step: string,
  url: string,
  leaseMs: number,
): Promise<void> {
  await sql`WITH recorded AS (
      INSERT INTO case_mirror_steps (referentie, step, url) VALUES (${referentie}, ${step}, ${url})
      ON CONFLICT (referentie, step) DO NOTHING
    )
    UPDATE case_mirrors SET next_attempt_at = now() + ${interval(leaseMs)}::interval
    ${step === 'zaak' ? sql`, zaak_url = ${url}, zaak_uuid = ${uuidOf(url)}::uuid` : sql``}
    WHERE referentie = ${referentie}`.execute(db);
}

/**
 * Nothing is owed any more: `done`, unless new work (a besluit) arrived during the pass, which makes the case
 * due again at once. False when the work version moved on.
 */
export async function markDone(db: Db, c: MirrorCase): Promise<boolean> {
  const res =
    await sql`UPDATE case_mirrors SET state = 'done', next_attempt_at = NULL, attempts = 0, diverged_at = NULL,
      diverged_correlation_id = NULL, last_error = NULL
    WHERE referentie = ${c.referentie} AND work_version = ${c.workVersion}`.execute(db);
  if (Number(res.numAffectedRows ?? 0) > 0) return true;
  await sql`UPDATE case_mirrors SET next_attempt_at = now(), attempts = 0 WHERE referentie = ${c.referentie}`.execute(
    db,
  );
  return false;
}

/** The zaak is deleted: nothing about this case is owed any more (its steps go with it). */
export async function forgetCase(db: Db, referentie: string): Promise<void> {
  await db.deleteFrom('case_mirrors').where('referentie', '=', referentie).execute();
}

/** Diverged: the reconciler's from now on, first in `reconcileMs`; the 48 hours count from the first divergence. */
export async function markDiverged(
  db: Db,
  referentie: string,
  values: { correlationId: string | null; detail: string; reconcileMs: number },
): Promise<void> {
  await sql`UPDATE case_mirrors SET state = 'diverged', diverged_at = COALESCE(diverged_at, now()),
      diverged_correlation_id = COALESCE(diverged_correlation_id, ${values.correlationId}),
      next_attempt_at = now() + ${interval(values.reconcileMs)}::interval, last_error = ${values.detail}
    WHERE referentie = ${referentie}`.execute(db);
}

/** The submit's documents are still to be linked at the documents service (its link job is owed). */
export async function linkPending(db: Db, applicationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('document_link_jobs')
    .select('application_id')
    .where('application_id', '=', applicationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Not the case system's fault (the documents service was away): try again later, no divergence. */
export async function postponeCase(db: Db, referentie: string, delayMs: number, detail: string): Promise<void> {
  await sql`UPDATE case_mirrors SET next_attempt_at = now() + ${interval(delayMs)}::interval, last_error = ${detail}
    WHERE referentie = ${referentie}`.execute(db);
}

/** ADR 0005: the flag an operator sees; never over another reden (that one stays until it is handled). */
export async function flagDivergence(db: Db, applicationId: string, reden: string): Promise<void> {
  await sql`UPDATE applications SET manual = true, reden = ${reden} WHERE id = ${applicationId}::uuid AND (reden IS NULL
    OR reden = ${reden})`.execute(db);
}

export async function clearDivergence(db: Db, applicationId: string, reden: string): Promise<void> {
  await sql`UPDATE applications SET manual = false, reden = NULL WHERE id = ${applicationId}::uuid
    AND reden = ${reden}`.execute(db);
}

/**
 * The submitted case is owed to the case system: the part of the submit's statement (ADR 0278) that writes it when
 * `source` (the submitted row, with its `referentie`) has one; the mirror job works it after.
 */
export function submitOwed(
  source: string,
  values: { applicationId: string; correlationId: string | null },
): RawBuilder<unknown> {
  return sql`INSERT INTO case_mirrors (referentie, application_id, submit_correlation_id, traceparent)
    SELECT ${sql.ref(`${source}.referentie`)}, ${values.applicationId}::uuid, ${values.correlationId},
      ${currentTraceparent() ?? null} FROM ${sql.table(source)}`;
}

/**
 * The besluit is owed (in the besluit's transaction). A case mirrored before is due again; one the mirror is
 * still working on or that diverged keeps its schedule (the pass under way hands over, the reconciler takes
 * the besluit with the rest); an application submitted before mirroring was on gets its whole case now.
 */
export async function oweBesluit(
  db: Db,
  values: { referentie: string; applicationId: string; by: string; correlationId: string | null },
): Promise<void> {
  await sql`INSERT INTO case_mirrors (referentie, application_id, besluit_by, besluit_correlation_id,
    submit_correlation_id, traceparent)
    VALUES (${values.referentie}, ${values.applicationId}::uuid, ${values.by}, ${values.correlationId},
    ${values.correlationId}, ${currentTraceparent() ?? null})
    ON CONFLICT (referentie) DO UPDATE SET besluit_by = EXCLUDED.besluit_by,
    besluit_correlation_id = EXCLUDED.besluit_correlation_id,
      traceparent = EXCLUDED.traceparent,
      work_version = case_mirrors.work_version + 1,
      state = CASE WHEN case_mirrors.state = 'done' THEN 'pending' ELSE case_mirrors.state END,
      next_attempt_at = CASE WHEN case_mirrors.state = 'done' THEN now() ELSE case_mirrors.next_attempt_at END`.execute(
    db,
  );
}

/** The zaak's delete is owed (in the admin delete's transaction); it replaces whatever else was owed. */
export async function oweDelete(db: Db, values: { referentie: string; correlationId: string | null }): Promise<void> {
  await sql`INSERT INTO case_mirrors (referentie, delete_requested, delete_correlation_id, traceparent)
    VALUES (${values.referentie}, true, ${values.correlationId}, ${currentTraceparent() ?? null})
    ON CONFLICT (referentie) DO UPDATE SET delete_requested = true,
    delete_correlation_id = EXCLUDED.delete_correlation_id, application_id = NULL,
      traceparent = EXCLUDED.traceparent,
      work_version = case_mirrors.work_version + 1,
      state = CASE WHEN case_mirrors.state = 'done' THEN 'pending' ELSE case_mirrors.state END,
      next_attempt_at = CASE WHEN case_mirrors.state = 'done' THEN now() ELSE case_mirrors.next_attempt_at END`.execute(
    db,
  );
}

/**
 * A notification about this zaak: a diverged case waiting for the reconciler is looked at now (the case
 * system answers again). A due time further away than a lease can reach is a schedule, never a claim's lease.
 */
export async function dueNowByZaakUrl(db: Db, zaakUrl: string, leaseMs: number): Promise<boolean> {
  const zaakUuid = uuidOf(zaakUrl);
  if (!zaakUuid) return false;
  const res = await sql`UPDATE case_mirrors SET next_attempt_at = now()
    WHERE zaak_uuid = ${zaakUuid}::uuid AND zaak_url = ${zaakUrl} AND state = 'diverged'
    AND next_attempt_at > now() + ${interval(leaseMs)}::interval`.execute(db);
  return Number(res.numAffectedRows ?? 0) > 0;
}

export async function findByZaakUuid(
  db: Db,
  zaakUuid: string,
): Promise<{ referentie: string; application_id: string | null } | undefined> {
  return db
    .selectFrom('case_mirrors')
    .select(['referentie', 'application_id'])
    .where('zaak_uuid', '=', zaakUuid)
    .executeTakeFirst();
}

/** The zaak uuids of these referenties (those mirrored so far). */
export async function zaakUuidsOf(db: Db, referenties: string[]): Promise<Map<string, string>> {
  if (referenties.length === 0) return new Map();
  const rows = await db
    .selectFrom('case_mirrors')
    .select(['referentie', 'zaak_uuid'])
    .where('referentie', 'in', referenties)
    .where('zaak_uuid', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.referentie, r.zaak_uuid!]));
}

/** How many cases are in a state (the mirror's gauges). */
export async function countCases(db: Db, state: 'pending' | 'diverged'): Promise<number> {
  const row = await db
    .selectFrom('case_mirrors')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('state', '=', state)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Seconds since the oldest open divergence began; 0 when there is none. */
export async function oldestDivergenceSeconds(db: Db): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(diverged_at)), 0)::float AS n FROM case_mirrors
    WHERE state = 'diverged'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
