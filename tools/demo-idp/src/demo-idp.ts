import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { demoPage, demoPageCsp } from './demo-page';
import { interactionRoutes } from './interactions';
import { DEMO_CLIENT_ID, providerConfiguration } from './provider-config';

export interface DemoIdpOptions {
  /** 0: any free port. */
  port: number;
  /** Where it listens; default 127.0.0.1. */
  host?: string;
  /** Default `http://localhost:<port>`: an origin without a path, as the browser will open it. */
  issuer?: string;
  /** Where the demo page sends its API calls (the gateway's origin). */
  gatewayUrl: string;
  /** The `aud` of the access tokens, the gateway's OIDC_AUDIENCE; default `register-api`. */
  audience?: string;
  /** Access token lifetime; default one hour. */
  accessTokenTtlSeconds?: number;
}

export interface DemoIdp {
  /** The gateway's OIDC_ISSUER. */
  issuer: string;
  /** The gateway's OIDC_AUDIENCE. */
  audience: string;
  /** The demo page's origin: the gateway's CORS_ORIGINS. */
  origin: string;
  discoveryUrl: string;
  /** The demo client page. */
  demoUrl: string;
  close(): Promise<void>;
}

const PUBLIC_DIR = path.join(__dirname, '..', '..', 'public');

/**
 * The embedded demo identity provider (issue 13): oidc-provider with the demo accounts, a plain login page, the
 * authorization code flow with PKCE, JWT access tokens for the API, and the demo client page at /demo/.
 * Everything is in memory and its signing keys are new on every start.
 */
export async function startDemoIdp(options: DemoIdpOptions): Promise<DemoIdp> {
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  try {
    const { port } = server.address() as AddressInfo;
    const issuer = (options.issuer ?? `http://localhost:${port}`).replace(/\/$/, '');
    if (new URL(issuer).pathname !== '/')
      throw new Error(`the demo IdP's issuer must be an origin without a path: ${issuer}`);
    const audience = options.audience ?? 'register-api';
    const gatewayOrigin = new URL(options.gatewayUrl).origin;
    // ES modules only: Node 24 loads it from this CommonJS package through a dynamic import.
    const { Provider } = await import('oidc-provider');
    const provider = new Provider(
      issuer,
      await providerConfiguration({
        issuer,
        gatewayOrigin,
        audience,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
      }),
    );

    const app = express();
    app.disable('x-powered-by');
    // `/demo` and `/demo/` are different paths here: the page lives at the registered redirect URI, `/demo/`.
    app.set('strict routing', true);
    app.get(['/', '/demo'], (_req, res) => res.redirect('/demo/'));
    app.get('/demo/', (_req, res) => {
      res.setHeader('Content-Security-Policy', demoPageCsp(gatewayOrigin));
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(demoPage({ issuer, gatewayUrl: gatewayOrigin, clientId: DEMO_CLIENT_ID }));
    });
    app.use('/demo', express.static(path.join(PUBLIC_DIR, 'demo'), { index: false, fallthrough: false }));
    app.use(interactionRoutes(provider));
    app.use(provider.callback());
    handler = app;
    return {
      issuer,
      audience,
      origin: new URL(issuer).origin,
      discoveryUrl: `${issuer}/.well-known/openid-configuration`,
      demoUrl: `${issuer}/demo/`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  } catch (err) {
    server.close();
    throw err;
  }
}
