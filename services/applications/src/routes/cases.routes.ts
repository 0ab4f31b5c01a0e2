import { Router } from 'express';
import { identityOf, mountRoute } from '@register/authz';
import { adminDeleteCase, beoordeling, recordBesluit } from '../domain/cases';
import type { AppDeps } from '../app';
import { bodyOf, pageOf, sendPage } from './http';

export function casesRouter(deps: AppDeps): Router {
  const router = Router();
  const app = deps.applications;
  mountRoute(router, 'applications', 'GET', '/api/v1/werkvoorraad', async (req, res) => {
    sendPage(req, res, await app.cases.werkvoorraad(pageOf(req)));
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/beoordeling/:id', async (req, res) => {
    res.json(await beoordeling(app, identityOf(res), String(req.params['id'])));
  });
  mountRoute(router, 'applications', 'POST', '/api/v1/beoordeling/:id/besluit', async (req, res) => {
    res.json(await recordBesluit(app, identityOf(res), String(req.params['id']), bodyOf(req)));
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/admin/cases', async (req, res) => {
    sendPage(req, res, await app.cases.all(pageOf(req)));
  });
  mountRoute(router, 'applications', 'DELETE', '/api/v1/admin/cases/:id', async (req, res) => {
    await adminDeleteCase(app, identityOf(res), String(req.params['id']));
    res.status(204).end();
  });
  return router;
}
