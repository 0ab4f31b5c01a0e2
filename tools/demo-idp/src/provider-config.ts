import { randomBytes } from 'node:crypto';
import type { JWK } from 'jose' with { 'resolution-mode': 'import' };
import type { OidcContext } from 'oidc-provider';
import { LEVELS, accountBySubject } from './accounts';

const jose = import('jose');

/** The demo portal: a public client (no secret) that must use PKCE, redirected back to the demo page. */
export const DEMO_CLIENT_ID = 'register-demo-portal';
/** Swagger UI on the gateway (/docs), signing in for "Try it out" (the gateway's OIDC_DOCS_CLIENT_ID). */
export const DOCS_CLIENT_ID = 'register-swagger-ui';
/**
 * The operations console on the gateway (/console/), signing in as the operator (the gateway's CONSOLE_OIDC_CLIENT_ID).
 */
export const CONSOLE_CLIENT_ID = 'register-console';
/** The API as a resource server (RFC 8707): the access tokens for it are JWTs with this audience. */
export const API_RESOURCE = 'urn:register:api';
export const API_SCOPE = 'api';

async function signingKeys(): Promise<JWK[]> {
  const { exportJWK, generateKeyPair } = await jose;
  const keys: JWK[] = [];
  // RS256 for ID and access tokens (what the gateway sees), ES256 offered as well; new keys on every start.
  for (const alg of ['RS256', 'ES256'] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    keys.push({
      ...(await exportJWK(privateKey)),
      alg,
      use: 'sig',
      kid: `demo-${alg.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    });
  }
  return keys;
}

/** oidc-provider's configuration for the demo: its accounts, the code flow with PKCE, JWT access tokens for the API. */
export async function providerConfiguration(options: {
  issuer: string;
  gatewayOrigin: string;
  audience: string;
  accessTokenTtlSeconds: number;
}): Promise<Record<string, unknown>> {
  return {
    clients: clientsOf(options),
    jwks: { keys: await signingKeys() },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    // The code flow only: no implicit flow offered in discovery (Swagger UI would list it).
    responseTypes: ['code'],
    acrValues: Object.values(LEVELS),
    claims: { openid: ['sub'] },
    scopes: ['openid', API_SCOPE],
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: API_SCOPE,
          audience: options.audience,
          accessTokenTTL: options.accessTokenTtlSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accountBySubject(sub);
      return account ? { accountId: sub, claims: () => ({ sub }) } : undefined;
    },
    // The identity claims the gateway reads, and how the user signed in (its step-up for the reveal).
    extraTokenClaims: (ctx: OidcContext, token: { kind: string; accountId?: string }) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = accountBySubject(token.accountId);
      const code = ctx.oidc.entities.AuthorizationCode;
      return { ...account?.claims, acr: code?.acr, auth_time: code?.authTime };
    },
    loadExistingGrant,
    ttl: { Session: 8 * 3600, Interaction: 600, Grant: 8 * 3600, AuthorizationCode: 60, IdToken: 3600 },
    renderError,
  };
}

/** Swagger UI and the console on the gateway (either loopback name), and the demo portal: public, code flow. */
function clientsOf(options: { issuer: string; gatewayOrigin: string }): Array<Record<string, unknown>> {
  const publicClient = {
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
  const onGateway = (path: string) => loopbackVariants(options.gatewayOrigin).map((origin) => `${origin}${path}`);
  return [
    {
      client_id: DOCS_CLIENT_ID,
      client_name: 'Register API (Swagger UI)',
      ...publicClient,
      redirect_uris: onGateway('/docs/oauth2-redirect.html'),
    },
    {
      client_id: CONSOLE_CLIENT_ID,
      client_name: 'Beheerconsole Register',
      ...publicClient,
      redirect_uris: onGateway('/console/'),
    },
    {
      client_id: DEMO_CLIENT_ID,
      client_name: 'Register demo portal',
      ...publicClient,
      redirect_uris: [`${options.issuer}/demo/`],
      post_logout_redirect_uris: [`${options.issuer}/demo/`],
    },
  ];
}

/** First-party client: consent is implied, so the grant (OpenID scopes and the API scope) is made on login. */
async function loadExistingGrant(ctx: OidcContext) {
  const { client, session, result, provider, params } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  if (grantId) return provider.Grant.find(grantId);
  const grant = new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
  grant.addOIDCScope(typeof params?.['scope'] === 'string' ? params['scope'] : 'openid');
  grant.addResourceScope(API_RESOURCE, API_SCOPE);
  await grant.save();
  return grant;
}

function renderError(ctx: { type: string; body: string }, out: Record<string, string>): void {
  ctx.type = 'html';
  const rows = Object.entries(out).map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(String(v))}</dd>`);
  ctx.body = [
    '<!doctype html><html lang="nl"><meta charset="utf-8"><title>Fout</title><h1>Er ging iets mis</h1>',
    `<dl>${rows.join('')}</dl><p><a href="/demo/">Terug naar de demo</a></p></html>`,
  ].join('');
}

/** A gateway on localhost is as often opened as 127.0.0.1 (and the other way round): both may be redirected to. */
function loopbackVariants(origin: string): string[] {
  const url = new URL(origin);
  const other = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname === '127.0.0.1' ? 'localhost' : null;
  if (!other) return [origin];
  const alternative = new URL(origin);
  alternative.hostname = other;
  return [origin, alternative.origin];
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
