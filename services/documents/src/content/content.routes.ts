import { pipeline } from 'node:stream/promises';
import { documents } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { DocumentIdParams } from '../uploads/uploads.schemas';
import { openContent } from './open-content';

/** RFC 5987/6266 `filename*` value: UTF-8, percent-encoded, also the characters encodeURIComponent keeps. */
function dispositionOf(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}

const downloadUpload = defineOperation({
  rule: documents.routes.content,
  operationId: 'downloadUpload',
  summary: 'Download an uploaded document',
  description:
    'The stored bytes with their detected `Content-Type`, `Content-Disposition: attachment; filename*=UTF-8\'\'…` and `X-Content-Type-Options: nosniff`. The owner reads their own documents; `CanBeoordelen` reads documents linked to a submitted application. Anyone else gets a bare 404.',
  params: DocumentIdParams,
  responses: { 200: { description: 'The file, as stored', contentType: 'application/octet-stream' } },
  problems: [503],
  handle: async (ctx: Context, { params, identity, res }) => {
    const { row, body } = await openContent(ctx, identity, params.documentId);
    res.status(200);
    res.setHeader('Content-Type', row.content_type);
    res.setHeader('Content-Length', String(row.size_bytes));
    res.setHeader('Content-Disposition', dispositionOf(row.file_name));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    // A failure mid-stream cannot become a problem document any more: the connection is cut instead.
    await pipeline(body, res).catch((err: unknown) => {
      ctx.logger.warn({ err, documentId: params.documentId }, 'content stream failed');
      res.destroy();
    });
  },
});

export const contentRoutes = [downloadUpload];
