import path from 'node:path';

/** The built console (index.html, js/, css/): the gateway serves this folder at /console/. */
export const CONSOLE_ROOT = path.join(__dirname, 'web');

/** What the console reads at start (`/console/config.json`): how an operator signs in. */
export interface ConsoleConfig {
  identityProvider: 'headers' | 'oidc';
  /** With `oidc`: the issuer and the public client the console signs in as (code flow with PKCE). */
  issuer: string | null;
  clientId: string | null;
}
