import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { hasCapability, identityOf, mountRoute, type Identity } from '@register/authz';
import { DomainError } from '@register/problem';
import { correlationIdOf } from '@register/problem';
import { categoriesFor, LARGEST_UPLOAD_BYTES, maxBytesOf } from '../domain/categories';
import { adminDeleteDocument, deleteOwnDocument, openContent, uploadStatus } from '../domain/manage-documents';
import { admitUpload, uploadDocument, type UploadDeps, type UploadFields } from '../domain/upload-document';
import { spooledFileOf, uploadParser } from './upload-parser';
import { categoriesQuery, documentIdParam, statusQuery } from './uploads.schemas';

export interface UploadsRouterDeps extends UploadDeps {
  tmpDir: string;
}

function fieldsOf(body: unknown): UploadFields {
  const b = (body ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof b[name] === 'string' ? (b[name] as string) : null);
  return { wizardId: text('wizardId'), categoryId: text('categoryId'), localId: text('localId'), applicationId: text('applicationId') };
}

/** The route table guarantees `applications:own`, which only a practitioner holds. */
function ownerOf(res: Response): { identity: Identity; owner: string } {
  const identity = identityOf(res) as Identity;
  return { identity, owner: (identity.practitioner as { subject: string }).subject };
}

/** RFC 5987/6266 `filename*` value: UTF-8, percent-encoded, also the characters encodeURIComponent keeps. */
function dispositionOf(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}

export function uploadsRouter(deps: UploadsRouterDeps): Router {
  const router = Router();
  const parser = uploadParser({
    tmpDir: deps.tmpDir,
    maxFileBytes: LARGEST_UPLOAD_BYTES,
    // Fields sent before the file let us refuse (403/400) or cut off (413) before the bytes are read.
    admit: (req: Request) => {
      const fields = fieldsOf(req.body);
      const category = admitUpload(fields, hasCapability(identityOf(req.res as Response), 'orgtemplate:edit'));
      if (category) return maxBytesOf(category);
      if (fields.wizardId && fields.categoryId) {
        throw new DomainError('validation', 'The upload is invalid.', [{ field: 'categoryId', code: 'unknown', detail: `Unknown category ${fields.categoryId} for wizard ${fields.wizardId}.` }]);
      }
      return LARGEST_UPLOAD_BYTES;
    },
  });

  mountRoute(router, 'documents', 'GET', '/api/v1/uploads/categories', (req, res) => {
    const q = categoriesQuery.parse(req.query);
    res.json({ categories: categoriesFor(q.wizardId, { diplomaHerkomst: q.diplomaHerkomst ?? null, taalvaardigheid: q.taalvaardigheid ?? null }) });
  });

  mountRoute(router, 'documents', 'GET', '/api/v1/uploads/status', async (req, res) => {
    const { localIds } = statusQuery.parse(req.query);
    res.json({ results: await uploadStatus(deps.db, ownerOf(res).owner, localIds) });
  });

  mountRoute(router, 'documents', 'POST', '/api/v1/uploads', parser, async (req, res) => {
    const { identity, owner } = ownerOf(res);
    const file = spooledFileOf(req);
    let document;
    try {
      document = await uploadDocument(deps, owner, fieldsOf(req.body), file, hasCapability(identity, 'orgtemplate:edit'));
    } finally {
      // Gone before the answer, whatever the outcome: the spool holds nothing once a request is done.
      if (file) await rm(file.path, { force: true });
    }
    res.status(201).location(`/api/v1/uploads/${document.documentId}/content`).json(document);
  });

  mountRoute(router, 'documents', 'GET', '/api/v1/uploads/:documentId/content', async (req, res) => {
    const { documentId } = documentIdParam.parse(req.params);
    const { row, body } = await openContent(deps, identityOf(res) as Identity, documentId);
    res.status(200);
    res.setHeader('Content-Type', row.content_type);
    res.setHeader('Content-Length', String(row.size_bytes));
    res.setHeader('Content-Disposition', dispositionOf(row.file_name));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    // A failure mid-stream cannot become a problem document any more: the connection is cut instead.
    await pipeline(body, res).catch((err: unknown) => {
      deps.logger.warn({ err, documentId }, 'content stream failed');
      res.destroy();
    });
  });

  mountRoute(router, 'documents', 'DELETE', '/api/v1/uploads/:documentId', async (req, res) => {
    const { documentId } = documentIdParam.parse(req.params);
    await deleteOwnDocument(deps, ownerOf(res).owner, documentId);
    res.status(204).end();
  });

  mountRoute(router, 'documents', 'DELETE', '/api/v1/admin/uploads/:documentId', async (req, res) => {
    const { documentId } = documentIdParam.parse(req.params);
    await adminDeleteDocument(deps, identityOf(res) as Identity, documentId, correlationIdOf(res));
    res.status(204).end();
  });

  return router;
}
