import { DEMO_ACCOUNTS } from './accounts';
import { escapeHtml } from './provider-config';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
label,legend{display:block;font-weight:600;margin:1rem 0 .4rem}select,button{font:inherit;padding:.5rem}
fieldset{border:0;padding:0}fieldset label{font-weight:400;display:block}button{margin-top:1.2rem}
.note{color:#555;font-size:.9rem}`;

/** The plain login page of the demo IdP: pick an account and a sign-in level. There are no passwords. */
export function loginPage(uid: string, clientName: string): string {
  const options = DEMO_ACCOUNTS.map(
    (a) => `<option value="${escapeHtml(a.login)}">${escapeHtml(a.label)}</option>`,
  ).join('');
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="nl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inloggen (demo)</title><style>${STYLE}</style></head>
<body>
<main>
<h1>Inloggen</h1>
<p class="note">Demo-identiteitsprovider van het register, voor ${escapeHtml(clientName)}.
Alleen voor proberen: geen wachtwoorden, en na een herstart zijn alle sessies weg.</p>
<form method="post" action="${action}/login">
<label for="account">Account</label>
<select id="account" name="account">${options}</select>
<fieldset>
<legend>Inlogniveau</legend>
<label><input type="radio" name="level" value="basis" checked> Basis (loa2)</label>
<label><input type="radio" name="level" value="substantieel">
Substantieel (loa3): nodig om het registernummer te tonen</label>
</fieldset>
<button type="submit" id="login">Inloggen</button>
</form>
<form method="post" action="${action}/abort"><button type="submit" id="abort">Annuleren</button></form>
</main>
</body>
</html>`;
}
