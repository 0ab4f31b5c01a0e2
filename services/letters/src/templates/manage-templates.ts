import { NotFoundError, validationError } from '@register/problem';
import { z } from 'zod';
import { decodeCursor, encodeCursor, type PageQuery } from '@register/service-kit';
import type { Context } from '../context';
import {
  appendVersion,
  countUnsentBriefs,
  findTemplate,
  findVersion,
  listTemplates,
  listVersions,
  saveDraft,
  type TemplateRow,
} from './templates.repository';
import type { OrgTemplateAdminView, SaveOrgTemplateRequest } from './templates.schemas';
import { toContent, toOrgTemplate } from './template-view';

const SubOrgCursor = z.object({ after: z.string() });

/** ADR 0014: in id order, `limit` (default and at most 1000) per page, a cursor to the next page while rows remain. */
export async function listSubOrgs(ctx: Context, page: PageQuery) {
  const limit = page.limit ?? 1000;
  const rows = await listTemplates(ctx.db, {
    after: decodeCursor(page.cursor, SubOrgCursor)?.after ?? null,
    limit: limit + 1,
  });
  const items = rows
    .slice(0, limit)
    .map((r) => ({ subOrgId: r.subOrgId, orgName: r.publishedOrgName, publishedVersion: r.publishedVersion }));
  return { items, nextCursor: rows.length > limit ? encodeCursor({ after: items.at(-1)!.subOrgId }) : null };
}

export async function requireTemplate(ctx: Context, subOrgId: string): Promise<TemplateRow> {
  const row = await findTemplate(ctx.db, subOrgId);
  if (!row) throw new NotFoundError('org template');
  return row;
}

/**
 * The draft (numbered as the version it becomes), the published version, the history newest first, the unsent briefs.
 */
export async function adminView(ctx: Context, subOrgId: string): Promise<OrgTemplateAdminView> {
  const row = await requireTemplate(ctx, subOrgId);
  const [history, unsentBriefs] = await Promise.all([
    listVersions(ctx.db, subOrgId),
    countUnsentBriefs(ctx.db, subOrgId),
  ]);
  return {
    draft: toOrgTemplate(subOrgId, row.draft, row.publishedVersion + 1),
    publishedVersion: row.publishedVersion,
    history: history.map((v) => ({
      version: v.version,
      publishedAt: v.publishedAt.toISOString(),
      template: toOrgTemplate(subOrgId, v.template, v.version),
    })),
    unsentBriefs,
  };
}

/** Replaces the draft (ADR 0010): a logo must be an `organisatie-logo` upload, confirmed by the documents service. */
export async function saveTemplate(
  ctx: Context,
  subOrgId: string,
  request: SaveOrgTemplateRequest,
): Promise<OrgTemplateAdminView> {
  const { draft } = request;
  if (draft.subOrgId && draft.subOrgId !== subOrgId)
    throw validationError([
      {
        field: 'draft.subOrgId',
        code: 'sub-org-mismatch',
        detail: 'The draft belongs to the sub-organisation of the path.',
      },
    ]);
  const content = toContent(draft);
  const current = await requireTemplate(ctx, subOrgId);
  if (
    content.logoDocumentId !== null &&
    content.logoDocumentId !== current.draft.logoDocumentId &&
    !(await ctx.logos.isOrganisatieLogo(content.logoDocumentId))
  ) {
    throw validationError([
      {
        field: 'draft.logoDocumentId',
        code: 'not-an-organisatie-logo',
        detail: 'The logo must be a document uploaded in the organisatie-logo category.',
      },
    ]);
  }
  await saveDraft(ctx.db, subOrgId, content);
  return adminView(ctx, subOrgId);
}

/**
 * Publishes the draft as `publishedVersion + 1`; the count of unsent briefs says how many letters change letterhead.
 */
export async function publishTemplate(
  ctx: Context,
  subOrgId: string,
): Promise<{ version: number; affectedUnsentBriefs: number }> {
  const version = await ctx.db.transaction().execute(async (trx) => {
    const row = await findTemplate(trx, subOrgId, { forUpdate: true });
    if (!row) throw new NotFoundError('org template');
    await appendVersion(trx, subOrgId, row.publishedVersion + 1, row.draft, ctx.clock.now());
    return row.publishedVersion + 1;
  });
  return { version, affectedUnsentBriefs: await countUnsentBriefs(ctx.db, subOrgId) };
}

const VERSION = /^[1-9]\d{0,8}$/;

/**
 * ADR 0010: rollback publishes a new version with that version's content and resets the draft to it;
 * the history only grows, and sent letters keep the version they were sent with. An unknown version is 404.
 */
export async function rollbackTemplate(
  ctx: Context,
  subOrgId: string,
  versionParam: string,
): Promise<OrgTemplateAdminView> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findTemplate(trx, subOrgId, { forUpdate: true });
    if (!row) throw new NotFoundError('org template');
    const target = VERSION.test(versionParam) ? await findVersion(trx, subOrgId, Number(versionParam)) : undefined;
    if (!target) throw new NotFoundError('org template version');
    await appendVersion(trx, subOrgId, row.publishedVersion + 1, target.template, ctx.clock.now());
    await saveDraft(trx, subOrgId, target.template);
  });
  return adminView(ctx, subOrgId);
}
