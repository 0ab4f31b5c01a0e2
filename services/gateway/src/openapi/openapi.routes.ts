import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { MergedOpenApi } from './merge';

/** The public description (no identity needed) and Swagger UI on it. */
export function openApiRouter(openApi: MergedOpenApi): Router {
  const router = Router();
  router.get('/openapi.json', async (_req, res) => {
    // decisions §15: the description may be read from any origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json(await openApi.document());
  });
  router.use('/docs', swaggerUi.serve);
  router.get('/docs', swaggerUi.setup(undefined, { swaggerUrl: '/openapi.json', customSiteTitle: 'Register API v1' }));
  return router;
}
