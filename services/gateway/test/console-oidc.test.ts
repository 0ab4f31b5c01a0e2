import { chromium, type Browser, type Page } from 'playwright-core';
import { axeViolations, CHROMIUM_ARGS, cspViolations, screenshot } from './support/console-browser';
import { freePort } from '@register/embedded';
import { startDemoIdpProcess, type DemoIdpProcess } from './support/demo-idp-process';
import { startSystem, type TestSystem } from './support/system';

// Issue 22: with IDENTITY_PROVIDER=oidc the console signs the operator in itself, with the authorization code flow
// and PKCE at the configured issuer (here the embedded demo IdP, as `npm start` runs it), and calls the API with
// the operator's own access token: the admin sees the audit log, anyone else the 403 page.
let sys: TestSystem;
let idp: DemoIdpProcess;
let browser: Browser;

beforeAll(async () => {
  const idpPort = await freePort();
  sys = await startSystem({
    env: {
      gateway: {
        IDENTITY_PROVIDER: 'oidc',
        OIDC_ISSUER: `http://localhost:${idpPort}`,
        OIDC_AUDIENCE: 'register-api',
      },
    },
  });
  idp = await startDemoIdpProcess(idpPort, sys.gateway);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await sys?.close();
}, 60_000);

/** What an operator does: open the console, go to the issuer, pick the account, come back signed in. */
async function signIn(account: string): Promise<{ page: Page; csp: string[]; tokens: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  const csp = cspViolations(page);
  const tokens: string[] = [];
  page.on('request', (req) => {
    const authorization = req.headers()['authorization'];
    if (req.url().startsWith(`${sys.gateway}/api/v1/`) && authorization?.startsWith('Bearer '))
      tokens.push(authorization);
  });
  await page.goto(`${sys.gateway}/console/`);
  await page.getByRole('heading', { level: 1, name: 'Aanmelden' }).waitFor();
  await screenshot(page, '10-aanmelden-oidc');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Aanmelden bij de identiteitsaanbieder' }).click();
  await page.waitForSelector('#account');
  expect(page.url().startsWith(idp.issuer)).toBe(true);
  await page.selectOption('#account', account);
  await page.check('input[name="level"][value="basis"]');
  await page.click('#login');
  return { page, csp, tokens };
}

describe('the operations console with IDENTITY_PROVIDER=oidc', () => {
  it('when the config is read, then it names the issuer and the console client', async () => {
    const config = await (await fetch(`${sys.gateway}/console/config.json`)).json();
    expect(config).toEqual({ identityProvider: 'oidc', issuer: idp.issuer, clientId: 'register-console' });
    const csp = (await fetch(`${sys.gateway}/console/`)).headers.get('content-security-policy');
    expect(csp).toContain(`connect-src 'self' ${idp.issuer}`);
  });

  it(
    'when the demo admin signs in with the code flow and PKCE, ' +
      'then the audit log shows with their own token and no code left in the address',
    async () => {
      const { page, csp, tokens } = await signIn('admin');

      await page.getByRole('heading', { level: 1, name: 'Auditlog' }).waitFor({ timeout: 30_000 });
      await page
        .getByRole('table', { name: 'Auditregels, nieuwste eerst' })
        .or(page.getByText('Geen auditregels'))
        .first()
        .waitFor();

      expect(new URL(page.url()).search).toBe('');
      expect(tokens.length).toBeGreaterThan(0);
      await screenshot(page, '11-auditlog-oidc');
      expect(await axeViolations(page)).toEqual([]);
      expect(csp).toEqual([]);
      await page.context().close();
    },
  );

  it('when a practitioner without the admin role signs in, then the console shows the 403 page', async () => {
    const { page, csp } = await signIn('900000001');

    await page.getByRole('heading', { level: 1, name: 'Geen toegang (403)' }).waitFor({ timeout: 30_000 });

    expect(await page.locator('table').count()).toBe(0);
    expect(csp).toEqual([]);
    await page.context().close();
  });
});
