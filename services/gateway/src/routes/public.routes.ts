import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { problemIndex, problemPage, sendNotFound } from '@register/problem';
import { checkReadiness, type ReadinessCheck } from '@register/service-kit';
import type { MergedOpenApi } from '../openapi/merge';

/** Routes that need no identity: probes, the description, Swagger UI and the problem type pages. */
export function publicRouter(openApi: MergedOpenApi, readiness: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: 'gateway' });
  });
  router.get('/health/ready', async (_req, res) => {
    const checks = await checkReadiness(readiness);
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks });
  });
  router.get('/openapi.json', async (_req, res) => {
    res.json(await openApi.document());
  });
  router.use('/docs', swaggerUi.serve);
  router.get('/docs', swaggerUi.setup(undefined, { swaggerUrl: '/openapi.json', customSiteTitle: 'Register API v1' }));
  router.get('/problems', (_req, res) => {
    res.type('html').send(problemIndex());
  });
  router.get('/problems/:slug', (req, res) => {
    const page = problemPage(String(req.params['slug']));
    if (page === null) return sendNotFound(res);
    res.type('html').send(page);
  });
  return router;
}
