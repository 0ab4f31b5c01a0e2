import { documents } from '@register/contracts';
import type { Identity } from '@register/authz';
import { currentCorrelationId, defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { DocumentIdParams } from '../uploads/uploads.schemas';
import { adminDeleteDocument } from './admin-delete-document';

const adminDeleteUpload = defineOperation({
  rule: documents.routes.adminDelete,
  operationId: 'adminDeleteUpload',
  summary: 'Delete any uploaded document (administration)',
  description:
    'Needs `uploads:admin-delete`. Removes the document and its bytes, also when it is linked to a submitted ' +
    'application, and writes a `document:admin-delete` audit row. An unknown document is a bare 404.',
  params: DocumentIdParams,
  responses: { 204: null },
  handle: async (ctx: Context, { params, identity }) => {
    // The rule's guard let only an identity with the capability through.
    await adminDeleteDocument(ctx, identity as Identity, params.documentId, currentCorrelationId());
    return {};
  },
});

export const adminRoutes = [adminDeleteUpload];
