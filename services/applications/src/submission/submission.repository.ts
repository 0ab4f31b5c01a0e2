import { sql, type RawBuilder } from 'kysely';
import { prepared, relayNotification } from '@register/service-kit';
import type { ApplicationType } from '../cases/application.schemas';
import { isApplicationId, type ApplicationRow } from '../applications/application-reads';
import type { Db } from '../database';

/** Only the type of the caller's own application (submit needs no draft, which can be large). */
export async function findOwnedType(db: Db, owner: string, id: string): Promise<ApplicationType | undefined> {
  if (!isApplicationId(id)) return undefined;
  // Every submit asks it first: prepared (parsed and planned once per connection).
  const [row] = (
    await sql<{
      type: string;
    }>`${prepared}SELECT type FROM applications WHERE id = ${id}::uuid AND owner = ${owner}`.execute(db)
  ).rows;
  // Create admits only the two types, so the column holds nothing else.
  return row?.type as ApplicationType | undefined;
}

export interface SubmitValues {
  /** `AV-<year>-`; the sequence adds the number (at least 6 digits). */
  referentiePrefix: string;
  documentIds: string[];
  submission: unknown;
  now: Date;
}

/** What submit answers with (the status); never the draft, which can be large. */
export type SubmittedRow = Pick<
  ApplicationRow,
  'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'
> & { referentie: string };

/** The common table that holds the submitted row in the submit's statement: the other parts read it. */
export const SUBMITTED = 'submitted';

/**
 * Submit's statement (ADR 0059, 0278): `Concept` → `Ingediend` with a referentie drawn from the sequence, and with it
 * the writes of the other features that go with a submit, each the part (`INSERT … SELECT … FROM submitted`) its
 * feature composes (ADR 0253). One statement is one atomic commit without a transaction's extra round trips. The
 * `status_tag = 'Concept'` condition is re-checked on the newest row version after waiting for a concurrent
 * writer's lock (READ COMMITTED), so of two racing submits exactly one updates; the other writes nothing.
 * `linkJob`'s part returns the job's `attempts`; the outbox relay is woken on commit. Prepared (ADR 0279): its text has
 * a few forms (with or without a link job, a mirror record, a processing record). Undefined when nothing was
 * updated (no longer a `Concept`, or gone).
 */
export async function submitConcept(
  db: Db,
  id: string,
  v: SubmitValues,
  parts: { linkJob?: RawBuilder<unknown> | undefined; along: readonly RawBuilder<unknown>[] },
): Promise<(SubmittedRow & { linkAttempts: number | null }) | undefined> {
  const drawn = sql`(SELECT ${v.referentiePrefix} || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM nextval('aanvraag_referentie_seq') AS n)`;
  const along = parts.along.map((part, i) => sql`, ${sql.raw(`part_${i}`)} AS (${part})`);
  const { rows } = await sql<
    SubmittedRow & { linkAttempts: number | null }
  >`${prepared}WITH ${sql.table(SUBMITTED)} AS (
      UPDATE applications SET status_tag = 'Ingediend', referentie = ${drawn},
        document_ids = ${JSON.stringify(v.documentIds)}::jsonb, submission = ${JSON.stringify(v.submission)}::jsonb,
        submitted_at = ${v.now}, updated_at = ${v.now}
      WHERE id = ${id}::uuid AND status_tag = 'Concept'
      RETURNING referentie, status_tag, step_index, step_count, manual, reden),
    link_job AS (${parts.linkJob ?? sql`SELECT NULL::int AS attempts WHERE false`}) ${sql.join(along, sql``)}
    SELECT s.referentie, s.status_tag, s.step_index, s.step_count, s.manual, s.reden,
      (SELECT attempts FROM link_job) AS "linkAttempts", ${relayNotification}
    FROM ${sql.table(SUBMITTED)} AS s`.execute(db);
  // The statement has just written the referentie, so a returned row always carries one.
  return rows[0];
}
