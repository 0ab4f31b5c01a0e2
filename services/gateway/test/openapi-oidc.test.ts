import http from 'node:http';
import express from 'express';
import pino from 'pino';
import { serve } from '@register/testkit';
import { gatewayOpenApi } from '../src/openapi/gateway.openapi';
import { MergedOpenApi } from '../src/openapi/merge';
import { openApiIdentity, withOidcSecurity } from '../src/openapi/oidc-security';
import { openApiRouter } from '../src/openapi/openapi.routes';

// With IDENTITY_PROVIDER=oidc the public description (and so Swagger UI's Authorize) offers the issuer's
// OpenID Connect scheme instead of the identity headers (issue 13, point 5).

type Doc = {
  info: { description: string };
  paths: Record<string, Record<string, { security?: unknown }>>;
  components: { securitySchemes: Record<string, { type: string; openIdConnectUrl?: string }> };
};
const nowhere = 'http://127.0.0.1:9';
const targets = { applications: nowhere, documents: nowhere, letters: nowhere, reference: nowhere, audit: nowhere };

describe('the OpenAPI description with IDENTITY_PROVIDER=oidc', () => {
  it(
    'when the provider is oidc, then the scheme is openIdConnect ' +
      'with the discovery URL and every identity operation asks for it',
    async () => {
      const identity = openApiIdentity({
        IDENTITY_PROVIDER: 'oidc',
        OIDC_ISSUER: 'https://idp.example.nl/realms/register/',
      });
      expect(identity).toEqual({
        openIdConnectUrl: 'https://idp.example.nl/realms/register/.well-known/openid-configuration',
        issuerOrigin: 'https://idp.example.nl',
        docsClientId: 'register-swagger-ui',
      });
      const doc = (await new MergedOpenApi(
        gatewayOpenApi(),
        targets,
        pino({ level: 'silent' }),
        30_000,
        identity,
      ).document()) as Doc;
      expect(doc.components.securitySchemes['oidc']).toMatchObject({
        type: 'openIdConnect',
        openIdConnectUrl: identity!.openIdConnectUrl,
      });
      expect(Object.keys(doc.components.securitySchemes)).not.toContain('subject');
      expect(doc.paths['/me']!['get']!.security).toEqual([{ oidc: [] }]);
      expect(doc.info.description).toContain('Bearer');
      expect(doc.info.description).not.toContain('`X-Subject`');
    },
  );

  it(
    'when /docs is opened, then Swagger UI signs in as the ' +
      'docs client with PKCE and may connect to the issuer only',
    async () => {
      const identity = openApiIdentity({
        IDENTITY_PROVIDER: 'oidc',
        OIDC_ISSUER: 'https://idp.example.nl/realms/register',
        OIDC_DOCS_CLIENT_ID: 'portal-docs',
      });
      const app = express().use(
        openApiRouter(new MergedOpenApi(gatewayOpenApi(), targets, pino({ level: 'silent' }), 30_000, identity)),
      );
      const server = await serve(http.createServer(app));
      try {
        const script = await fetch(`${server.url}/docs/register-docs.js`);
        expect(await script.text()).toContain(
          'window.ui.initOAuth({"clientId":"portal-docs","usePkceWithAuthorizationCodeGrant":true,"scopes":"openid ' +
            'api"})',
        );
        const csp = (await fetch(`${server.url}/docs/`)).headers.get('content-security-policy') ?? '';
        expect(csp).toContain("connect-src 'self' https://idp.example.nl;");
        expect(csp).toContain("script-src 'self';");
        expect((await fetch(`${server.url}/docs/oauth2-redirect.html`)).status).toBe(200);
      } finally {
        await server.close();
      }
    },
  );

  it(
    'when a service describes header alternatives and the webhook secret, ' +
      'then the alternatives become one oidc requirement and the secret stays',
    () => {
      const doc = {
        paths: {
          '/api/v1/werkvoorraad': { get: { security: [{ medewerker: [], rollen: [] }] } },
          '/api/v1/flags': {
            get: {
              security: [
                { subject: [], role: [] },
                { medewerker: [], rollen: [] },
              ],
            },
          },
          '/api/v1/notificaties': { post: { security: [{ notificatiesAuth: [] }] } },
        },
        components: {
          securitySchemes: { subject: {}, role: {}, medewerker: {}, rollen: {}, notificatiesAuth: { type: 'apiKey' } },
        },
      };
      const out = withOidcSecurity(doc, {
        openIdConnectUrl: 'https://idp/.well-known/openid-configuration',
        issuerOrigin: 'https://idp',
        docsClientId: 'docs',
      }) as unknown as Doc;
      expect(out.paths['/api/v1/werkvoorraad']!['get']!.security).toEqual([{ oidc: [] }]);
      expect(out.paths['/api/v1/flags']!['get']!.security).toEqual([{ oidc: [] }]);
      expect(out.paths['/api/v1/notificaties']!['post']!.security).toEqual([{ notificatiesAuth: [] }]);
      expect(Object.keys(out.components.securitySchemes).sort()).toEqual(['notificatiesAuth', 'oidc']);
    },
  );

  it('when the provider is the header stand-in, then nothing changes', async () => {
    expect(openApiIdentity({ IDENTITY_PROVIDER: 'headers', OIDC_ISSUER: 'https://idp.example.nl' })).toBeNull();
    const doc = (await new MergedOpenApi(gatewayOpenApi(), targets, pino({ level: 'silent' })).document()) as Doc;
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(['subject', 'role', 'medewerker', 'rollen']),
    );
    expect(doc.components.securitySchemes['oidc']).toBeUndefined();
    const app = express().use(openApiRouter(new MergedOpenApi(gatewayOpenApi(), targets, pino({ level: 'silent' }))));
    const server = await serve(http.createServer(app));
    try {
      expect(await (await fetch(`${server.url}/docs/register-docs.js`)).text()).not.toContain('initOAuth');
      expect((await fetch(`${server.url}/docs/`)).headers.get('content-security-policy')).toContain(
        "connect-src 'self';",
      );
    } finally {
      await server.close();
    }
  });
});
