import { Router, type RequestHandler } from 'express';
import { mountRoute, requireIdentity } from '@register/authz';
import { getFlags, requireFlag, setFlag } from '../domain/flags';
import { SetFeatureFlagRequest } from './reference.schemas';
import type { Deps } from '../app';

export function flagsRouter(deps: Deps): Router {
  const router = Router();
  const list: RequestHandler = async (_req, res) => {
    res.json(await getFlags(deps.db));
  };
  mountRoute(router, 'reference', 'GET', '/api/v1/flags', list);
  router.get('/internal/flags', list);
  mountRoute(router, 'reference', 'PUT', '/api/v1/admin/flags/:key', async (req, res) => {
    const key = String(req.params['key']);
    await requireFlag(deps.db, key); // 404 before 400 (decisions §2)
    const body = SetFeatureFlagRequest.parse(req.body ?? {});
    await setFlag(deps.db, requireIdentity(res), key, body.enabled, String(res.locals['correlationId']));
    res.status(204).end();
  });
  return router;
}
