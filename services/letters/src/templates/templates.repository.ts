import type { Kysely, Transaction } from 'kysely';
import type { LettersDb } from '../database';
import type { TemplateContent } from './templates.schemas';

type Db = Kysely<LettersDb> | Transaction<LettersDb>;

export interface TemplateRow {
  subOrgId: string;
  draft: TemplateContent;
  publishedVersion: number;
}

export interface TemplateVersionRow {
  version: number;
  publishedAt: Date;
  template: TemplateContent;
}

/** Sub-organisations in id order, after `after` (keyset paging), at most `limit`. */
export async function listTemplates(
  db: Db,
  page: { after: string | null; limit: number },
): Promise<Array<TemplateRow & { publishedOrgName: string | null }>> {
  let query = db
    .selectFrom('org_template as t')
    .innerJoin('org_template_version as v', (j) =>
      j.onRef('v.sub_org_id', '=', 't.sub_org_id').onRef('v.version', '=', 't.published_version'),
    )
    .select(['t.sub_org_id', 't.draft', 't.published_version', 'v.template'])
    .orderBy('t.sub_org_id')
    .limit(page.limit);
  if (page.after !== null) query = query.where('t.sub_org_id', '>', page.after);
  const rows = await query.execute();
  return rows.map((r) => ({
    subOrgId: r.sub_org_id,
    draft: r.draft,
    publishedVersion: r.published_version,
    publishedOrgName: r.template.orgName,
  }));
}

export async function findTemplate(
  db: Db,
  subOrgId: string,
  options: { forUpdate?: boolean } = {},
): Promise<TemplateRow | undefined> {
  let query = db
    .selectFrom('org_template')
    .select(['sub_org_id', 'draft', 'published_version'])
    .where('sub_org_id', '=', subOrgId);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && { subOrgId: row.sub_org_id, draft: row.draft, publishedVersion: row.published_version };
}

export async function findVersion(db: Db, subOrgId: string, version: number): Promise<TemplateVersionRow | undefined> {
  const row = await db
    .selectFrom('org_template_version')
    .select(['version', 'published_at', 'template'])
    .where('sub_org_id', '=', subOrgId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && { version: row.version, publishedAt: row.published_at, template: row.template };
}

/** The published version of a sub-organisation, or the given one (a sent brief's pinned version). */
export async function findPublished(
  db: Db,
  subOrgId: string,
  version: number | null,
): Promise<TemplateVersionRow | undefined> {
  if (version !== null) return findVersion(db, subOrgId, version);
  const row = await db
    .selectFrom('org_template as t')
    .innerJoin('org_template_version as v', (j) =>
      j.onRef('v.sub_org_id', '=', 't.sub_org_id').onRef('v.version', '=', 't.published_version'),
    )
    .select(['v.version', 'v.published_at', 'v.template'])
    .where('t.sub_org_id', '=', subOrgId)
    .executeTakeFirst();
  return row && { version: row.version, publishedAt: row.published_at, template: row.template };
}

export async function listVersions(db: Db, subOrgId: string): Promise<TemplateVersionRow[]> {
  const rows = await db
    .selectFrom('org_template_version')
    .select(['version', 'published_at', 'template'])
    .where('sub_org_id', '=', subOrgId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({ version: r.version, publishedAt: r.published_at, template: r.template }));
}

export async function saveDraft(trx: Db, subOrgId: string, draft: TemplateContent): Promise<void> {
  await trx
    .updateTable('org_template')
    .set({ draft: JSON.stringify(draft), updated_at: new Date() })
    .where('sub_org_id', '=', subOrgId)
    .execute();
}

/** Appends a version and makes it the published one. */
export async function appendVersion(
  trx: Transaction<LettersDb>,
  subOrgId: string,
  version: number,
  template: TemplateContent,
  publishedAt: Date,
): Promise<void> {
  await trx
    .insertInto('org_template_version')
    .values({ sub_org_id: subOrgId, version, published_at: publishedAt, template: JSON.stringify(template) })
    .execute();
  await trx
    .updateTable('org_template')
    .set({ published_version: version, updated_at: new Date() })
    .where('sub_org_id', '=', subOrgId)
    .execute();
}

/** ADR 0010: briefs of the sub-organisation that are not `verzonden`. */
export async function countUnsentBriefs(db: Db, subOrgId: string): Promise<number> {
  const row = await db
    .selectFrom('brief')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('template_id', '=', subOrgId)
    .where('status_tag', '!=', 'verzonden')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The shipped sub-organisations: a missing one is added with its content as version 1; nothing is overwritten. */
export async function seedTemplates(
  db: Kysely<LettersDb>,
  seed: ReadonlyArray<{ subOrgId: string; content: TemplateContent }>,
  publishedAt: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const { subOrgId, content } of seed) {
      const inserted = await trx
        .insertInto('org_template')
        .values({ sub_org_id: subOrgId, draft: JSON.stringify(content), published_version: 1 })
        .onConflict((oc) => oc.column('sub_org_id').doNothing())
        .returning('sub_org_id')
        .executeTakeFirst();
      if (inserted)
        await trx
          .insertInto('org_template_version')
          .values({ sub_org_id: subOrgId, version: 1, published_at: publishedAt, template: JSON.stringify(content) })
          .execute();
    }
  });
}
