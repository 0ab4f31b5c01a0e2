import { type Router, type RequestHandler } from 'express';
import { caseSensitiveRouter } from '@register/service-kit';
import swaggerUi from 'swagger-ui-express';
import type { MergedOpenApi } from './merge';
import type { OpenApiIdentity } from './oidc-security';

/**
 * ADR 0015: `/docs` runs only its own scripts and styles and cannot be framed. Swagger UI's components set
 * style attributes, which `style-src-attr` allows; no inline script or style element is needed (the page below
 * loads its start-up script from a file).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-elem 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Register API v1</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/register-docs.js"></script>
</body>
</html>
`;

const DOCS_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: false,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

/**
 * With IDENTITY_PROVIDER=oidc Swagger UI signs in itself: the code flow with PKCE as the docs client, and its page
 * may connect to the issuer (discovery, token endpoint); the redirect page is swagger-ui-dist's own file.
 */
function docsFor(identity: OpenApiIdentity | null): { csp: string; script: string } {
  if (!identity) return { csp: DOCS_CSP, script: DOCS_SCRIPT };
  const oauth = { clientId: identity.docsClientId, usePkceWithAuthorizationCodeGrant: true, scopes: 'openid api' };
  return {
    csp: DOCS_CSP.replace("connect-src 'self'", `connect-src 'self' ${identity.issuerOrigin}`),
    script: `${DOCS_SCRIPT}window.ui.initOAuth(${JSON.stringify(oauth)});\n`,
  };
}

/** The public description (no identity needed) and Swagger UI on it. */
export function openApiRouter(openApi: MergedOpenApi): Router {
  const router = caseSensitiveRouter();
  const docs = docsFor(openApi.identity);
  const withDocsCsp: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', docs.csp);
    next();
  };
  router.get('/openapi.json', async (_req, res) => {
    // ADR 0015: the description may be read from any origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json(await openApi.document());
  });
  router.get(['/docs', '/docs/', '/docs/index.html'], withDocsCsp, (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/register-docs.js', withDocsCsp, (_req, res) => {
    res.type('application/javascript').send(docs.script);
  });
  // Swagger UI's own files (swagger-ui-dist), with the same policy.
  router.use('/docs', withDocsCsp, swaggerUi.serve);
  return router;
}
