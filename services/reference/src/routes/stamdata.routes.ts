import { Router } from 'express';
import { mountRoute } from '@register/authz';
import { getSummaries, getTable } from '../domain/stamdata';
import { StamdataQuery } from './reference.schemas';
import type { Deps } from '../app';

export function stamdataRouter(deps: Deps): Router {
  const router = Router();
  mountRoute(router, 'reference', 'GET', '/api/v1/stamdata', async (_req, res) => {
    const tables = await getSummaries(deps.db);
    res.json(tables.map(({ id, label, columns, temporal }) => ({ id, label, columns, temporal })));
  });
  mountRoute(router, 'reference', 'GET', '/api/v1/stamdata/:table', async (req, res) => {
    const query = StamdataQuery.parse(req.query);
    res.json(await getTable(deps.db, deps.clock, String(req.params['table']), query.peildatum));
  });
  // Other services read stamdata (policy question wording, professions) here.
  router.get('/internal/stamdata/:table', async (req, res) => {
    const query = StamdataQuery.parse(req.query);
    res.json(await getTable(deps.db, deps.clock, String(req.params['table']), query.peildatum));
  });
  return router;
}
