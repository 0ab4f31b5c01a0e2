import { Router } from 'express';
import { mountRoute } from '@register/authz';
import { requestPhoneChange } from '../domain/change-requests';
import { dashboardView, educationLookup, notes, populationAddress } from '../domain/person-views';
import type { AppDeps } from '../app';
import { bodyOf, ownerOf } from './http';

export function personRouter(deps: AppDeps): Router {
  const router = Router();
  const person = deps.person;
  mountRoute(router, 'applications', 'GET', '/api/v1/dashboard-view', async (_req, res) => {
    res.json(await dashboardView(person, ownerOf(res)));
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/notes', async (_req, res) => {
    res.json(await notes(person, ownerOf(res)));
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/population/address', async (_req, res) => {
    res.json(await populationAddress(person, ownerOf(res)));
  });
  mountRoute(router, 'applications', 'GET', '/api/v1/education/diplomas', async (_req, res) => {
    res.json(await educationLookup(person, ownerOf(res)));
  });
  // The same configured value serves this view and submit rule S1.
  mountRoute(router, 'applications', 'GET', '/api/v1/intake/policy', (_req, res) => {
    res.json({ scholingThreshold: deps.config.scholingThreshold });
  });
  mountRoute(router, 'applications', 'POST', '/api/v1/change-requests', async (req, res) => {
    res.json(await requestPhoneChange(deps, ownerOf(res), bodyOf(req)['telefoon']));
  });
  return router;
}
