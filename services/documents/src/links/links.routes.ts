import { documents } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { confirmOrgLogo, documentsOfApplication } from './application-documents';
import { checkLink, linkToApplication } from './link-documents';
import { ApplicationIdParams, OrgLogoParams } from './links.schemas';

const { internal } = documents;

// The API other services call with a signed service identity: the applications service checks and links a
// submit's documents and lists a case's; the letters service confirms a template's logo.

const checkDocumentLinks = defineOperation({
  internal: { method: 'POST', path: internal.paths.linkCheck },
  operationId: 'checkDocumentLinks',
  summary: 'Check whether documents may be linked to an application (internal)',
  description:
    'The dry run of the link: 200 with every document the link would refuse (`documents[i].documentId`); ' +
    'an empty list means every document may be linked. Links nothing.',
  body: internal.linkRequest,
  responses: { 200: internal.linkCheckResponse },
  handle: async (ctx: Context, { body }) => ({ body: { rejected: await checkLink(ctx, body) } }),
});

const linkDocumentsOperation = defineOperation({
  internal: { method: 'POST', path: internal.paths.link },
  operationId: 'linkDocuments',
  summary: 'Link documents to a submitted application (internal)',
  description:
    'All or nothing; repeating the same call answers the same. ' +
    '422 `links-rejected` names each refused document and links none.',
  body: internal.linkRequest,
  responses: { 200: internal.linkResponse },
  problems: [422],
  handle: async (ctx: Context, { body }) => ({
    body: { linked: await linkToApplication(ctx, body) },
  }),
});

const listApplicationDocuments = defineOperation({
  internal: { method: 'GET', path: internal.paths.documentsOf },
  operationId: 'listApplicationDocuments',
  summary: 'The documents linked to an application (internal)',
  params: ApplicationIdParams,
  responses: { 200: internal.documentsOfResponse },
  handle: async (ctx: Context, { params }) => ({ body: await documentsOfApplication(ctx, params.applicationId) }),
});

const confirmOrgLogoOperation = defineOperation({
  internal: { method: 'POST', path: internal.paths.confirmOrgLogo },
  operationId: 'confirmOrgLogo',
  summary: 'Confirm that a document is an organisation logo upload (internal)',
  params: OrgLogoParams,
  responses: { 200: internal.confirmOrgLogoResponse },
  handle: async (ctx: Context, { params }) => ({ body: await confirmOrgLogo(ctx, params.documentId) }),
});

export const linksRoutes = [
  checkDocumentLinks,
  linkDocumentsOperation,
  listApplicationDocuments,
  confirmOrgLogoOperation,
];
