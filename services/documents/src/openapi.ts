import { z } from 'zod';
import { generateOpenApi, json, OpenAPIRegistry, problem } from '@register/service-kit';
import { UploadCategoriesSchema, UploadedDocumentSchema, UploadStatusSchema } from './routes/uploads.schemas';

/** The public routes only; /internal/* stays out of the description the gateway merges. */
export function documentsOpenApi(): object {
  const registry = new OpenAPIRegistry();
  const documentId = z.object({ documentId: z.string() });
  const denied = { 401: problem('No valid identity'), 403: problem('Capability missing') };
  registry.registerPath({
    method: 'get',
    path: '/api/v1/uploads/categories',
    tags: ['Uploads'],
    request: { query: z.object({ wizardId: z.string(), diplomaHerkomst: z.string().optional(), taalvaardigheid: z.string().optional() }) },
    responses: { 200: json(UploadCategoriesSchema), 400: problem('Unknown wizard or answer'), ...denied },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/uploads',
    tags: ['Uploads'],
    description: 'multipart/form-data: wizardId, categoryId, optional localId (<= 64) and applicationId, one file part `file`.',
    responses: {
      201: json(UploadedDocumentSchema, 'Stored'),
      400: problem('Unknown wizard or category, no file, localId too long'),
      ...denied,
      409: problem('The category already holds an unlinked document'),
      413: problem('Larger than maxSizeMb'),
      415: problem('Detected type not accepted'),
      503: problem('Document store unavailable'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/uploads/status',
    tags: ['Uploads'],
    request: { query: z.object({ localIds: z.string() }) },
    responses: { 200: json(UploadStatusSchema), 400: problem('More than 100 localIds'), ...denied },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/uploads/{documentId}/content',
    tags: ['Uploads'],
    request: { params: documentId },
    responses: { 200: { description: 'The file, as stored' }, ...denied, 404: { description: 'Unknown document' } },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/uploads/{documentId}',
    tags: ['Uploads'],
    request: { params: documentId },
    responses: { 204: { description: 'Deleted' }, ...denied, 404: { description: 'Unknown document' }, 409: problem('Linked to a submitted application') },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/admin/uploads/{documentId}',
    tags: ['Uploads'],
    request: { params: documentId },
    responses: { 204: { description: 'Deleted' }, ...denied, 404: { description: 'Unknown document' } },
  });
  return generateOpenApi(registry, 'Register documents');
}
