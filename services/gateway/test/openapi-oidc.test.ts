import pino from 'pino';
import { gatewayOpenApi } from '../src/openapi/gateway.openapi';
import { MergedOpenApi } from '../src/openapi/merge';
import { openApiIdentity, withOidcSecurity } from '../src/openapi/oidc-security';

// With IDENTITY_PROVIDER=oidc the public description (and so Swagger UI's Authorize) offers the issuer's
// OpenID Connect scheme instead of the identity headers (issue 13, point 5).

type Doc = { paths: Record<string, Record<string, { security?: unknown }>>; components: { securitySchemes: Record<string, { type: string; openIdConnectUrl?: string }> } };
const nowhere = 'http://127.0.0.1:9';
const targets = { applications: nowhere, documents: nowhere, letters: nowhere, reference: nowhere, audit: nowhere };

describe('the OpenAPI description with IDENTITY_PROVIDER=oidc', () => {
  it('when the provider is oidc, then the scheme is openIdConnect with the discovery URL and every identity operation asks for it', async () => {
    const identity = openApiIdentity({ IDENTITY_PROVIDER: 'oidc', OIDC_ISSUER: 'https://idp.example.nl/realms/register/' });
    expect(identity).toEqual({ openIdConnectUrl: 'https://idp.example.nl/realms/register/.well-known/openid-configuration' });
    const doc = (await new MergedOpenApi(gatewayOpenApi(), targets, pino({ level: 'silent' }), 30_000, identity).document()) as Doc;
    expect(doc.components.securitySchemes['oidc']).toMatchObject({ type: 'openIdConnect', openIdConnectUrl: identity!.openIdConnectUrl });
    expect(Object.keys(doc.components.securitySchemes)).not.toContain('subject');
    expect(doc.paths['/api/v1/me']!['get']!.security).toEqual([{ oidc: [] }]);
  });

  it('when a service describes header alternatives and the webhook secret, then the alternatives become one oidc requirement and the secret stays', () => {
    const doc = {
      paths: {
        '/api/v1/werkvoorraad': { get: { security: [{ medewerker: [], rollen: [] }] } },
        '/api/v1/flags': { get: { security: [{ subject: [], role: [] }, { medewerker: [], rollen: [] }] } },
        '/api/v1/notificaties': { post: { security: [{ notificatiesAuth: [] }] } },
      },
      components: { securitySchemes: { subject: {}, role: {}, medewerker: {}, rollen: {}, notificatiesAuth: { type: 'apiKey' } } },
    };
    const out = withOidcSecurity(doc, { openIdConnectUrl: 'https://idp/.well-known/openid-configuration' }) as unknown as Doc;
    expect(out.paths['/api/v1/werkvoorraad']!['get']!.security).toEqual([{ oidc: [] }]);
    expect(out.paths['/api/v1/flags']!['get']!.security).toEqual([{ oidc: [] }]);
    expect(out.paths['/api/v1/notificaties']!['post']!.security).toEqual([{ notificatiesAuth: [] }]);
    expect(Object.keys(out.components.securitySchemes).sort()).toEqual(['notificatiesAuth', 'oidc']);
  });

  it('when the provider is the header stand-in, then nothing changes', async () => {
    expect(openApiIdentity({ IDENTITY_PROVIDER: 'headers', OIDC_ISSUER: 'https://idp.example.nl' })).toBeNull();
    const doc = (await new MergedOpenApi(gatewayOpenApi(), targets, pino({ level: 'silent' })).document()) as Doc;
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['subject', 'role', 'medewerker', 'rollen']));
    expect(doc.components.securitySchemes['oidc']).toBeUndefined();
  });
});
