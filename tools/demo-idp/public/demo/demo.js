// The demo portal: sign in with the authorization code flow and PKCE, then call the API with the access token.
// The token stays in this page's memory; only the PKCE verifier and state wait in sessionStorage during the redirect.
'use strict';

const setting = (name) => document.querySelector(`meta[name="${name}"]`).content;
const issuer = setting('demo-issuer');
const gateway = setting('demo-gateway');
const clientId = setting('demo-client-id');
const redirectUri = `${location.origin}/demo/`;
const show = (id, text) => (document.getElementById(id).textContent = text);

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function discovery() {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`discovery: ${res.status}`);
  return res.json();
}

async function signIn() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem('demo-pkce', JSON.stringify({ verifier, state }));
  const { authorization_endpoint: endpoint } = await discovery();
  const url = new URL(endpoint);
  const params = {
    client_id: clientId,
    response_type: 'code',
    scope: 'openid api',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    prompt: 'login',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  location.assign(url.toString());
}

async function redeem(query) {
  const pending = JSON.parse(sessionStorage.getItem('demo-pkce') ?? 'null');
  sessionStorage.removeItem('demo-pkce');
  history.replaceState(null, '', redirectUri);
  if (query.get('error')) throw new Error(`${query.get('error')}: ${query.get('error_description') ?? ''}`);
  if (!pending || pending.state !== query.get('state')) throw new Error('state does not match: start again');
  const { token_endpoint: endpoint } = await discovery();
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: query.get('code'),
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: pending.verifier,
  });
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const tokens = await res.json();
  if (!res.ok) throw new Error(`token: ${tokens.error ?? res.status} ${tokens.error_description ?? ''}`);
  return tokens.access_token;
}

async function callApi(path, accessToken) {
  const res = await fetch(`${gateway}${path}`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
  });
  const text = await res.text();
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  return `${res.status}\n${shown}`;
}

async function main() {
  document
    .getElementById('sign-in')
    .addEventListener('click', () => signIn().catch((err) => show('status', `Inloggen mislukt: ${err.message}`)));
  document.getElementById('sign-out').addEventListener('click', () => location.assign(redirectUri));
  const query = new URLSearchParams(location.search);
  if (!query.has('code') && !query.has('error')) return;
  try {
    show('status', 'Bezig met inloggen…');
    const accessToken = await redeem(query);
    show('status', 'Ingelogd.');
    document.getElementById('sign-out').hidden = false;
    show('me', await callApi('/api/v1/me', accessToken));
    show('dashboard', await callApi('/api/v1/dashboard-view', accessToken));
    show('status', 'Ingelogd; de API heeft geantwoord.');
  } catch (err) {
    show('status', `Inloggen mislukt: ${err.message}`);
  }
}

main();
