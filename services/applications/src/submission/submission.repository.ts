import { sql } from 'kysely';
import type { ApplicationType } from '../cases/application.schemas';
import { isApplicationId, type ApplicationRow } from '../applications/application-reads';
import type { Db } from '../database';

/** Only the type of the caller's own application (submit needs no draft, which can be large). */
export async function findOwnedType(db: Db, owner: string, id: string): Promise<ApplicationType | undefined> {
  if (!isApplicationId(id)) return undefined;
  const row = await db
    .selectFrom('applications')
    .select('type')
    .where('id', '=', id)
    .where('owner', '=', owner)
    .executeTakeFirst();
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

/**
 * Submit's own write (ADR 0059, step 2): `Concept` → `Ingediend` with a referentie drawn from the sequence, in
 * the caller's transaction. The `status_tag = 'Concept'` condition is re-checked on the newest row version after
 * waiting for a concurrent writer's lock (READ COMMITTED), so of two racing submits exactly one updates.
 * Undefined when nothing was updated (no longer a `Concept`, or gone).
 */
export async function submitConcept(db: Db, id: string, v: SubmitValues): Promise<SubmittedRow | undefined> {
  const drawn = sql<string>`(SELECT ${v.referentiePrefix} || lpad(n::text, greatest(6, length(n::text)), '0')
    FROM nextval('aanvraag_referentie_seq') AS n)`;
  const row = await db
    .updateTable('applications')
    .set({
      status_tag: 'Ingediend',
      referentie: drawn,
      document_ids: JSON.stringify(v.documentIds),
      submission: JSON.stringify(v.submission),
      submitted_at: v.now,
      updated_at: v.now,
    })
    .where('id', '=', id)
    .where('status_tag', '=', 'Concept')
    .returning(['referentie', 'status_tag', 'step_index', 'step_count', 'manual', 'reden'])
    .executeTakeFirst();
  // The statement has just written the referentie, so a returned row always carries one.
  return row ? { ...row, referentie: row.referentie! } : undefined;
}
