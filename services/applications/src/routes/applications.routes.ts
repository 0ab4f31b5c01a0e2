import { Router } from 'express';
import { z } from 'zod';
import { mountRoute } from '@register/authz';
import { createApplication, deleteApplication, getApplication, syncDraft } from '../domain/applications';
import { submitApplication } from '../domain/submit-application';
import type { AppDeps } from '../app';
import { bodyOf, ownerOf, pageOf, sendPage } from './http';

export const DraftSyncRequest = z.object({
  draft: z.unknown(),
  stepIndex: z.number().int(),
  stepCount: z.number().int(),
  documentIds: z.array(z.string().max(200)).max(200).nullish(),
});

export function applicationsRouter(deps: AppDeps): Router {
  const router = Router();
  const app = deps.applications;
  mountRoute(router, 'applications', 'GET', '/api/v1/applications', async (req, res) => {
    sendPage(req, res, await app.cases.listOwn(ownerOf(res), pageOf(req)));
  });
  mountRoute(router, 'applications', 'POST', '/api/v1/applications', async (req, res) => {
    const detail = await createApplication(app, ownerOf(res), bodyOf(req)['type']);
    res.status(201).location(`/api/v1/applications/${detail.id}`).json(detail);
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/applications/:id', async (req, res) => {
    res.json(await getApplication(app, ownerOf(res), String(req.params['id'])));
  });
  mountRoute(router, 'applications', 'PUT', '/api/v1/applications/:id', async (req, res) => {
    await syncDraft(app, ownerOf(res), String(req.params['id']), () => {
      const body = DraftSyncRequest.parse(req.body);
      return { draft: body.draft, stepIndex: body.stepIndex, stepCount: body.stepCount, documentIds: body.documentIds ?? null };
    });
    res.status(204).end();
  });
  mountRoute(router, 'applications', 'DELETE', '/api/v1/applications/:id', async (req, res) => {
    await deleteApplication(app, ownerOf(res), String(req.params['id']));
    res.status(204).end();
  });
  mountRoute(router, 'applications', 'POST', '/api/v1/applications/:id/submit', async (req, res) => {
    res.json(await submitApplication(app, ownerOf(res), String(req.params['id']), bodyOf(req)));
  });
  return router;
}
