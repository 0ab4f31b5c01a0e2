import { static as serveStatic, type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { CONSOLE_ROOT, type ConsoleConfig } from '@register/console';
import { caseSensitiveRouter } from '@register/service-kit';

/**
 * The public client the console signs in as with IDENTITY_PROVIDER=oidc (code flow with PKCE, redirect `/console/`).
 */
export const consoleConfigSchema = {
  CONSOLE_OIDC_CLIENT_ID: z
    .string()
    .min(1)
    .default('register-console')
    .describe(
      'The public client the operations console (/console/) signs in as with IDENTITY_PROVIDER=oidc: code flow ' +
        'with PKCE, redirect <gateway>/console/.',
    ),
};

interface Settings {
  IDENTITY_PROVIDER: 'headers' | 'oidc';
  OIDC_ISSUER?: string | undefined;
  CONSOLE_OIDC_CLIENT_ID: string;
}

/**
 * The console's own scripts and styles only, no inline script or style, never framed; with OIDC it may also
 * talk to the issuer (discovery and the token endpoint of the code flow).
 */
export function consoleCsp(settings: Settings): string {
  const issuer =
    settings.IDENTITY_PROVIDER === 'oidc' && settings.OIDC_ISSUER ? new URL(settings.OIDC_ISSUER).origin : null;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // The design system's CSS draws its icons from data: SVGs.
    "img-src 'self' data:",
    "font-src 'self'",
    issuer ? `connect-src 'self' ${issuer}` : "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** `/console/`: the operations console's static files (libs/console) and how it signs in; it calls only /api/v1. */
export function consoleRouter(settings: Settings): Router {
  const router = caseSensitiveRouter();
  const csp = consoleCsp(settings);
  const config: ConsoleConfig = {
    identityProvider: settings.IDENTITY_PROVIDER,
    issuer: settings.IDENTITY_PROVIDER === 'oidc' ? (settings.OIDC_ISSUER ?? null) : null,
    clientId: settings.IDENTITY_PROVIDER === 'oidc' ? settings.CONSOLE_OIDC_CLIENT_ID : null,
  };
  const withCsp: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  };
  // The router is not strict: `/console/` reaches this route too, and goes on to the files.
  router.get('/console', (req, res, next) => (req.path === '/console' ? res.redirect(301, '/console/') : next()));
  router.get('/console/config.json', withCsp, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(config);
  });
  router.use(
    '/console/',
    withCsp,
    serveStatic(CONSOLE_ROOT, {
      index: 'index.html',
      redirect: false,
      fallthrough: true,
      // The page itself is always asked anew, so a new release's modules are loaded with it.
      setHeaders: (res, file) =>
        res.setHeader('Cache-Control', file.endsWith('.html') ? 'no-cache' : 'public, max-age=300'),
    }),
  );
  return router;
}
