/**
 * How the console signs an operator in. It holds no privilege of its own: with OIDC it carries the operator's
 * own access token (code flow with PKCE against the configured issuer); with the header stand-in a demo identity
 * the operator picks, sent as the stand-in's headers.
 */
export interface ConsoleConfig {
  identityProvider: 'headers' | 'oidc';
  issuer: string | null;
  clientId: string | null;
}

export interface DemoIdentity {
  id: string;
  label: string;
  headers: Record<string, string>;
}

/** The demo identities of the header stand-in (ADR 0001); labels only, no personal data on the page. */
export const DEMO_IDENTITIES: DemoIdentity[] = [
  { id: 'beheerder', label: 'Beheerder (rol admin)', headers: { 'X-Subject': '900000003', 'X-Role': 'admin' } },
  { id: 'aanvrager', label: 'Aanvrager (rol drafter)', headers: { 'X-Subject': '900000001', 'X-Role': 'drafter' } },
  {
    id: 'goedkeurder',
    label: 'Goedkeurder (rol approver)',
    headers: { 'X-Subject': '900000002', 'X-Role': 'approver' },
  },
  {
    id: 'beoordelaar',
    label: 'Beoordelaar (medewerker)',
    headers: { 'X-Medewerker': 'mw-001', 'X-Rollen': 'beoordelaar' },
  },
];

const DEMO_KEY = 'console.demo-identity';
const TOKEN_KEY = 'console.access-token';
const PKCE_KEY = 'console.pkce';

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch('config.json', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`config.json: ${res.status}`);
  return (await res.json()) as ConsoleConfig;
}

/** The headers every API call carries, or null when nobody is signed in. */
export function identityHeaders(config: ConsoleConfig): Record<string, string> | null {
  if (config.identityProvider === 'oidc') {
    const token = sessionStorage.getItem(TOKEN_KEY);
    return token ? { Authorization: `Bearer ${token}` } : null;
  }
  const demo = DEMO_IDENTITIES.find((d) => d.id === sessionStorage.getItem(DEMO_KEY));
  return demo ? demo.headers : null;
}

export function signedInAs(config: ConsoleConfig): string {
  if (config.identityProvider === 'oidc') return 'Aangemeld via de identiteitsaanbieder';
  const demo = DEMO_IDENTITIES.find((d) => d.id === sessionStorage.getItem(DEMO_KEY));
  return demo ? `Demo-identiteit: ${demo.label}` : '';
}

export function chooseDemoIdentity(id: string): void {
  sessionStorage.setItem(DEMO_KEY, id);
}

export function signOut(): void {
  for (const key of [DEMO_KEY, TOKEN_KEY, PKCE_KEY]) sessionStorage.removeItem(key);
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (n: number) => base64url(crypto.getRandomValues(new Uint8Array(n)));
const redirectUri = () => `${location.origin}${location.pathname}`;

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

async function discover(issuer: string): Promise<Discovery> {
  const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`discovery: ${res.status}`);
  return (await res.json()) as Discovery;
}

/** Starts the authorization code flow with PKCE: the browser goes to the issuer and comes back with a code. */
export async function startSignIn(config: ConsoleConfig): Promise<void> {
  if (!config.issuer || !config.clientId) throw new Error('no issuer configured');
  const { authorization_endpoint } = await discover(config.issuer);
  const verifier = random(32);
  const state = random(16);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state }));
  const url = new URL(authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid api',
    state,
    code_challenge: base64url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

/** Back from the issuer with `?code&state`: the code is exchanged for the access token. False when not a return. */
export async function finishSignIn(config: ConsoleConfig): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  if (config.identityProvider !== 'oidc' || !config.issuer || !config.clientId || !code) return false;
  const saved = JSON.parse(sessionStorage.getItem(PKCE_KEY) ?? 'null') as { verifier: string; state: string } | null;
  sessionStorage.removeItem(PKCE_KEY);
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  if (!saved || saved.state !== params.get('state'))
    throw new Error('De aanmelding is niet door deze console gestart.');
  const { token_endpoint } = await discover(config.issuer);
  const res = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: config.clientId,
      code_verifier: saved.verifier,
    }),
  });
  if (!res.ok) throw new Error(`De identiteitsaanbieder weigerde de aanmelding (${res.status}).`);
  const { access_token } = (await res.json()) as { access_token?: string };
  if (!access_token) throw new Error('De identiteitsaanbieder gaf geen toegangstoken.');
  sessionStorage.setItem(TOKEN_KEY, access_token);
  return true;
}
