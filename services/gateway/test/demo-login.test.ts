import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  natsUrl,
  removeBucket,
  startNeighbour,
  startService,
  systemEvents,
  testS3,
  type Neighbour,
  type TestService,
} from '@register/testkit';
import type { Context } from '../src/context';
import { start } from '../src/main';
import { freePort } from '@register/embedded';
import { startDemoIdpProcess, type DemoIdpProcess } from './support/demo-idp-process';

// Issue 13, point 4: the embedded demo IdP in a real browser (Debian's headless Chromium). The demo page signs in
// with the code flow and PKCE, calls the gateway (IDENTITY_PROVIDER=oidc, CORS for the page's origin) with the
// access token, and shows what the API answered; the applications service behind it is the real one.

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let reference: Neighbour;
let documents: Neighbour;
let applications: Neighbour;
let gateway: TestService<Context>;
let idp: DemoIdpProcess;
let browser: Browser;
let tmpDir: string;
// A stream, durable consumers and a bucket of its own (ADR 0160).
const events = systemEvents(`demo_${randomUUID().replace(/-/g, '').slice(0, 8)}`);
const bucket = `demo-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  const s3 = testS3();
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-demo-'));
  reference = await startNeighbour('reference', { env: events.env.reference });
  documents = await startNeighbour('documents', {
    env: {
      ...events.env.documents,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: bucket,
      UPLOAD_TMP_DIR: tmpDir,
    },
  });
  applications = await startNeighbour('applications', {
    env: { ...events.env.applications, REFERENCE_URL: reference.url, DOCUMENTS_URL: documents.url },
  });
  // The gateway needs the issuer's address before the IdP needs the gateway's: the port is chosen first.
  const idpPort = await freePort();
  const issuer = `http://localhost:${idpPort}`;
  gateway = await startService(start, {
    name: 'gateway_demo',
    env: {
      ...events.env.gateway,
      IDENTITY_PROVIDER: 'oidc',
      OIDC_ISSUER: issuer,
      OIDC_AUDIENCE: 'register-api',
      CORS_ORIGINS: issuer,
      APPLICATIONS_URL: applications.url,
      DOCUMENTS_URL: documents.url,
      REFERENCE_URL: reference.url,
      LETTERS_URL: reference.url,
      AUDIT_URL: reference.url,
    },
  });
  idp = await startDemoIdpProcess(idpPort, gateway.url);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await gateway?.close();
  await applications?.close();
  await documents?.close();
  await reference?.close();
  await events.remove(natsUrl());
  await removeBucket(bucket);
  rmSync(tmpDir, { recursive: true, force: true });
}, 60_000);

interface SignedIn {
  page: Page;
  me: string;
  dashboard: string;
  /** The access token the page sent to the gateway (read from the browser's own request). */
  accessToken: string;
}

/** What a user does: open the demo page, sign in, pick the account and level, wait for the API's answers. */
async function signIn(account: string, level: 'basis' | 'substantieel' = 'basis'): Promise<SignedIn> {
  const context = await browser.newContext();
  const page = await context.newPage();
  let accessToken = '';
  page.on('request', (req) => {
    const authorization = req.headers()['authorization'];
    if (req.url().startsWith(gateway.url) && authorization?.startsWith('Bearer '))
      accessToken = authorization.slice('Bearer '.length);
  });
  await page.goto(`${idp.issuer}/demo/`);
  await page.click('#sign-in');
  await page.waitForSelector('#account');
  await page.selectOption('#account', account);
  await page.check(`input[name="level"][value="${level}"]`);
  await page.click('#login');
  await page
    .locator('#status')
    .filter({ hasText: /geantwoord|mislukt/ })
    .waitFor({ timeout: 30_000 });
  return {
    page,
    me: (await page.textContent('#me')) ?? '',
    dashboard: (await page.textContent('#dashboard')) ?? '',
    accessToken,
  };
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

describe('the demo login (tools/demo-idp) against the gateway with IDENTITY_PROVIDER=oidc', () => {
  it(
    'when 900000001 signs in on the demo page, ' +
      'then the page shows the API answers: the capabilities and the dashboard',
    async () => {
      const { page, me, dashboard, accessToken } = await signIn('900000001');
      expect(await page.textContent('#status')).toContain('de API heeft geantwoord');
      expect(me.split('\n')[0]).toBe('200');
      expect(JSON.parse(me.slice(me.indexOf('\n') + 1))).toEqual({
        capabilities: ['applications:own', 'brief:edit', 'brief:reveal-registernummer'],
      });
      expect(dashboard.split('\n')[0]).toBe('200');
      expect(dashboard).toContain('Geregistreerd');
      // Nothing of the sign-in stays in the browser's storage (spec, Authentication 4).
      // Runs in the page (the test compiles without the DOM library, hence globalThis).
      expect(
        await page.evaluate(() => (globalThis as any).sessionStorage.length + (globalThis as any).localStorage.length),
      ).toBe(0);
      expect(claimsOf(accessToken)).toMatchObject({
        bsn: '900000001',
        role: 'drafter',
        aud: 'register-api',
        iss: idp.issuer,
        acr: 'urn:etoegang:core:assurance-class:loa2',
        auth_time: expect.any(Number),
      });
      await page.context().close();
    },
  );

  it.each<[string, string[]]>([
    ['900000002', ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['900000003', ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['900000004', ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['approver', ['applications:own', 'brief:approve']],
    [
      'admin',
      [
        'applications:own',
        'audit:read',
        'cases:admin',
        'flags:write',
        'orgtemplate:edit',
        'stamdata:read',
        'uploads:admin-delete',
      ],
    ],
    ['beoordelaar', ['CanBeoordelen', 'stamdata:read']],
  ])('when demo account %s signs in, then /me on the page shows its capabilities', async (account, capabilities) => {
    const { page, me } = await signIn(account);
    expect(me.split('\n')[0]).toBe('200');
    expect(JSON.parse(me.slice(me.indexOf('\n') + 1))).toEqual({ capabilities });
    await page.context().close();
  });

  it(
    'when a practitioner signs in at level Substantieel, ' +
      'then the token carries loa3 (the step-up the reveal accepts)',
    async () => {
      const { page, accessToken } = await signIn('900000001', 'substantieel');
      expect(claimsOf(accessToken)['acr']).toBe('urn:etoegang:core:assurance-class:loa3');
      await page.context().close();
    },
  );
});
