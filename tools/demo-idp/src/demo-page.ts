import { escapeHtml } from './provider-config';

/**
 * The demo client page (`/demo/`): a portal in miniature that signs in with the code flow and PKCE and calls the
 * gateway with the access token. Its script (`/demo/demo.js`) reads where things are from these meta tags.
 */
export function demoPage(settings: { issuer: string; gatewayUrl: string; clientId: string }): string {
  const meta = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}">`;
  return `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Register: demoportaal</title>
${meta('demo-issuer', settings.issuer)}
${meta('demo-gateway', settings.gatewayUrl)}
${meta('demo-client-id', settings.clientId)}
<link rel="stylesheet" href="/demo/demo.css">
<script src="/demo/demo.js" defer></script>
</head>
<body>
<main>
<h1>Demoportaal</h1>
<p>Meldt zich aan bij de demo-identiteitsprovider (authorization code flow met PKCE) en roept de API aan met het
access token. Het token blijft alleen in het geheugen van deze pagina.</p>
<p><button type="button" id="sign-in">Inloggen</button>
<button type="button" id="sign-out" hidden>Uitloggen</button></p>
<p id="status" role="status">Niet ingelogd.</p>
<section><h2>GET /api/v1/me</h2><pre id="me">–</pre></section>
<section><h2>GET /api/v1/dashboard-view</h2><pre id="dashboard">–</pre></section>
</main>
</body>
</html>`;
}

/** Only its own script and style; the API calls go to the gateway (which allows this origin by CORS_ORIGINS). */
export function demoPageCsp(gatewayUrl: string): string {
  return (
    `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ` +
    `${new URL(gatewayUrl).origin}; frame-ancestors 'none'; form-action 'self'`
  );
}
