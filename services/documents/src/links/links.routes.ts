import { Router } from 'express';
import { documents } from '@register/contracts';
import { categoriesFor } from '../domain/categories';
import { checkLink, confirmOrgLogo, documentsOfApplication, linkToApplication, lookupDocuments } from '../domain/links';
import type { UploadDeps } from '../domain/upload-document';
import { linkBody, lookupBody } from './internal.schemas';
import { categoriesQuery } from './uploads.schemas';

/**
 * The API other services call with a signed service identity (the kit refuses anyone else on /internal/*).
 * The applications service links documents on submit; the letters service confirms a logo.
 */
export function internalRouter(deps: UploadDeps): Router {
  const router = Router();

  router.get('/internal/uploads/categories', (req, res) => {
    const q = categoriesQuery.parse(req.query);
    res.json({ categories: categoriesFor(q.wizardId, { diplomaHerkomst: q.diplomaHerkomst ?? null, taalvaardigheid: q.taalvaardigheid ?? null }) });
  });

  router.post('/internal/documents/lookup', async (req, res) => {
    const body = lookupBody.parse(req.body);
    res.json({ documents: await lookupDocuments(deps.db, body.owner, body.documentIds) });
  });

  router.post(documents.internal.paths.linkCheck, async (req, res) => {
    const body = documents.internal.linkRequest.parse(req.body);
    res.json({ rejected: await checkLink(deps.db, body) });
  });

  router.post('/internal/links', async (req, res) => {
    const body = linkBody.parse(req.body);
    res.json({ linked: await linkToApplication(deps.db, body, deps.clock.now()) });
  });

  router.get('/internal/applications/:applicationId/documents', async (req, res) => {
    res.json(await documentsOfApplication(deps.db, req.params.applicationId));
  });

  router.post('/internal/org-logos/:documentId/confirm', async (req, res) => {
    res.json(await confirmOrgLogo(deps.db, req.params.documentId));
  });

  return router;
}
