import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { documents } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import type { DocumentRow } from '../uploads/documents.table';
import { ORGANISATIE_LOGO, WIZARDS } from '../uploads/categories';
import { DocumentIdParams } from '../uploads/uploads.schemas';
import { openContent, openLinkedContent, openOrgLogo } from './open-content';

// Content is served with the type detected at upload, so the description names each type a category accepts.
const categories = Object.values(WIZARDS).flat();
const STORED_TYPES = [...new Set(categories.flatMap((c) => c.acceptedTypes))].sort();
const LOGO_TYPES = categories.find((c) => c.categoryId === ORGANISATIE_LOGO)?.acceptedTypes ?? [];

/** RFC 5987/6266 `filename*` value: UTF-8, percent-encoded, also the characters encodeURIComponent keeps. */
function dispositionOf(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename*=UTF-8''${encoded}`;
}

/**
 * The stored bytes with their type, length and name; a failure mid-stream cuts the connection (no problem document is
 * possible any more).
 */
async function sendContent(ctx: Context, res: Response, opened: { row: DocumentRow; body: Readable }): Promise<void> {
  const { row, body } = opened;
  res.status(200);
  res.setHeader('Content-Type', row.content_type);
  res.setHeader('Content-Length', String(row.size_bytes));
  res.setHeader('Content-Disposition', dispositionOf(row.file_name));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // ADR 0015: a stored document never runs as a page of ours, even when a browser is made to render it.
  res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox");
  res.setHeader('Cache-Control', 'private, no-store');
  await pipeline(body, res).catch((err: unknown) => {
    ctx.logger.warn({ err, documentId: row.id }, 'content stream failed');
    res.destroy();
  });
}

const downloadUpload = defineOperation({
  rule: documents.routes.content,
  operationId: 'downloadUpload',
  summary: 'Download an uploaded document',
  description:
    'The stored bytes with their detected `Content-Type`, `Content-Disposition: attachment; ' +
    "filename*=UTF-8''…` and `X-Content-Type-Options: nosniff`. The owner reads their own documents; " +
    '`CanBeoordelen` reads documents linked to a submitted application. Anyone else gets a bare 404.',
  params: DocumentIdParams,
  responses: { 200: { description: 'The file, as stored', contentType: STORED_TYPES } },
  problems: [503],
  handle: async (ctx: Context, { params, identity, res }) =>
    sendContent(ctx, res, await openContent(ctx, identity, params.documentId)),
});

const readApplicationDocument = defineOperation({
  internal: { method: 'GET', path: documents.internal.paths.content },
  operationId: 'readApplicationDocumentContent',
  summary: 'The bytes of a document linked to an application (internal)',
  description:
    'Streams the stored bytes with `Content-Type`, `Content-Length` and the file ' +
    'name in `Content-Disposition` (the case mirror copies them into the zaaksysteem). ' +
    'A document that is unknown or not linked to this application: a bare 404.',
  params: documents.internal.contentParams,
  responses: { 200: { description: 'The file, as stored', contentType: STORED_TYPES } },
  problems: [503],
  handle: async (ctx: Context, { params, res }) =>
    sendContent(ctx, res, await openLinkedContent(ctx, params.applicationId, params.documentId)),
});

const readOrgLogo = defineOperation({
  internal: { method: 'GET', path: documents.internal.paths.orgLogoContent },
  operationId: 'readOrgLogoContent',
  summary: 'The bytes of an organisation logo (internal)',
  description:
    'Streams an `organisatie-logo` upload with its `Content-Type` and `Content-Length` ' +
    '(letters draws it on the letterhead). Any other document, or an unknown id: a bare 404.',
  params: documents.internal.orgLogoParams,
  responses: { 200: { description: 'The logo, as stored', contentType: LOGO_TYPES } },
  problems: [503],
  handle: async (ctx: Context, { params, res }) => sendContent(ctx, res, await openOrgLogo(ctx, params.documentId)),
});

export const contentRoutes = [downloadUpload, readApplicationDocument, readOrgLogo];
