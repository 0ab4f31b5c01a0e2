import { z } from 'zod';
import { letters } from '@register/contracts';
import { defineOperation, nextLink, pageQuery } from '@register/service-kit';
import type { Context } from '../context';
import {
  adminView,
  listSubOrgs,
  publishTemplate,
  requireTemplate,
  rollbackTemplate,
  saveTemplate,
} from './manage-templates';
import { TEMPLATES_SEED } from './templates.seed';
import {
  OrgTemplateAdminView,
  PublishOrgTemplateResponse,
  RollbackParams,
  SaveOrgTemplateRequest,
  SubOrgParams,
  SubOrgSummary,
} from './templates.schemas';

const ADMIN =
  'Needs `orgtemplate:edit` (role admin); every denial is written to the audit log (`orgtemplate:edit`, `deny`).';
const loadTemplate = (ctx: Context, { params }: { params: { subOrgId: string } }) =>
  requireTemplate(ctx, params.subOrgId);

const list = defineOperation({
  rule: letters.routes.orgTemplates,
  operationId: 'listOrgTemplates',
  summary: 'List the sub-organisations and their published letterhead versions',
  description:
    `${ADMIN} The shipped ones are \`register\` and \`register-buitenland\`. Optional \`limit\` (1–1000) ` +
    `and \`cursor\`; while rows remain the answer carries \`Link: <…>; rel="next"\`.`,
  query: pageQuery,
  responses: { 200: z.array(SubOrgSummary) },
  handle: async (ctx: Context, { query, req }) => {
    const page = await listSubOrgs(ctx, query);
    return page.nextCursor
      ? { body: page.items, headers: { Link: nextLink(req.originalUrl, page.nextCursor) } }
      : { body: page.items };
  },
});

const get = defineOperation({
  rule: letters.routes.getOrgTemplate,
  operationId: 'getOrgTemplate',
  summary: 'Read the letterhead of a sub-organisation',
  description:
    `${ADMIN} The draft (numbered as the version it becomes), the published version, ` +
    `every published version newest first, and how many letters are not sent yet.`,
  params: SubOrgParams,
  load: loadTemplate,
  responses: { 200: OrgTemplateAdminView },
  handle: async (ctx: Context, { params }) => ({ body: await adminView(ctx, params.subOrgId) }),
});

const save = defineOperation({
  rule: letters.routes.saveOrgTemplate,
  operationId: 'saveOrgTemplate',
  summary: 'Replace the draft letterhead',
  description:
    `${ADMIN} 400 on a blank \`orgName\`, a margin outside 0–60 mm, ` +
    `or a \`logoDocumentId\` that is not an \`organisatie-logo\` upload (checked with the documents service; ` +
    `503 while it is unreachable). Published versions are untouched until publish.`,
  params: SubOrgParams,
  load: loadTemplate,
  body: SaveOrgTemplateRequest,
  example: { draft: { subOrgId: 'register', version: 2, ...TEMPLATES_SEED[0]!.content, signatureName: 'dr. P. Smit' } },
  responses: { 200: OrgTemplateAdminView },
  problems: [503],
  handle: async (ctx: Context, { params, body }) => ({ body: await saveTemplate(ctx, params.subOrgId, body) }),
});

const publish = defineOperation({
  rule: letters.routes.publishOrgTemplate,
  operationId: 'publishOrgTemplate',
  summary: 'Publish the draft letterhead',
  description:
    `${ADMIN} The draft becomes version \`publishedVersion + 1\` (the history gains an entry with ` +
    `\`publishedAt\`). Letters not sent yet use it from now ` +
    `on (\`affectedUnsentBriefs\`); sent letters keep theirs.`,
  params: SubOrgParams,
  load: loadTemplate,
  responses: { 200: PublishOrgTemplateResponse },
  handle: async (ctx: Context, { params }) => ({ body: await publishTemplate(ctx, params.subOrgId) }),
});

const rollback = defineOperation({
  rule: letters.routes.rollbackOrgTemplate,
  operationId: 'rollbackOrgTemplate',
  summary: 'Roll the letterhead back to an earlier version',
  description:
    `${ADMIN} Publishes a new version with that version's content and resets the draft to it; ` +
    `the history only grows. Sent letters keep the version ` +
    `they were sent with. An unknown version is a bare 404.`,
  params: RollbackParams,
  responses: { 200: OrgTemplateAdminView },
  handle: async (ctx: Context, { params }) => ({ body: await rollbackTemplate(ctx, params.subOrgId, params.version) }),
});

export const templatesRoutes = [list, get, save, publish, rollback];
