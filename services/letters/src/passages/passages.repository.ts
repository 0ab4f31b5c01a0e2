import type { Kysely } from 'kysely';
import { sameJson } from '../content/normalize';
import type { LettersDb } from '../database';
import type { LibraryPassage } from './passages.schemas';

type Row = Omit<LibraryPassage, 'version'>;

function toPassage(r: {
  passage_id: string;
  version: number;
  scope: string;
  section_key: string;
  label: string;
  content: LibraryPassage['content'];
  beroep: string | null;
  is_default: boolean;
  besluit: string | null;
  reason: string | null;
}): LibraryPassage {
  return {
    passageId: r.passage_id,
    scope: r.scope as LibraryPassage['scope'],
    sectionKey: r.section_key as LibraryPassage['sectionKey'],
    label: r.label,
    content: r.content,
    version: r.version,
    beroep: r.beroep,
    isDefault: r.is_default,
    besluit: r.besluit as LibraryPassage['besluit'],
    reason: r.reason,
  };
}

/** Every version of every passage, oldest first. */
export async function listPassageVersions(db: Kysely<LettersDb>): Promise<LibraryPassage[]> {
  const rows = await db.selectFrom('passage').selectAll().orderBy('passage_id').orderBy('version').execute();
  return rows.map(toPassage);
}

// Compared as values, not as strings: the stored content comes back from jsonb with its keys in another order.
const comparable = (p: Row) => [p.scope, p.sectionKey, p.label, p.content, p.beroep, p.isDefault, p.besluit, p.reason];

/**
 * The shipped library: a passage that is new starts at version 1; one whose shipped text (or tags) changed
 * gets the next version. Nothing is overwritten, so blocks keep pointing at the version they came from.
 */
export async function seedPassages(db: Kysely<LettersDb>, seed: readonly Row[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const latest = new Map<string, LibraryPassage>();
    for (const p of await listPassageVersions(trx)) latest.set(p.passageId!, p);
    const rows = seed
      .filter((p) => {
        const current = latest.get(p.passageId!);
        return !current || !sameJson(comparable(current), comparable(p));
      })
      .map((p) => ({
        passage_id: p.passageId!,
        version: (latest.get(p.passageId!)?.version ?? 0) + 1,
        scope: p.scope!,
        section_key: p.sectionKey!,
        label: p.label!,
        content: JSON.stringify(p.content),
        beroep: p.beroep,
        is_default: p.isDefault,
        besluit: p.besluit,
        reason: p.reason,
      }));
    if (rows.length > 0)
      await trx
        .insertInto('passage')
        .values(rows)
        .onConflict((oc) => oc.columns(['passage_id', 'version']).doNothing())
        .execute();
  });
}
