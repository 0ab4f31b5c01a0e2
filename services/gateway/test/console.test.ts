import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { parse } from 'yaml';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '@register/embedded';
import { zgwSettingsOf } from '@register/launcher';
import { DurableConsumer, connectEvents, createLogger, type NatsEvents } from '@register/service-kit';
import { eventually, natsUrl, removeDurableConsumers } from '@register/testkit';
import { startZgwSimulator, type ZgwSimulator } from '@register/zgw-sim';
import { axeViolations, CHROMIUM_ARGS, cspViolations, screenshot } from './support/console-browser';
import { startSystem, users, type TestSystem } from './support/system';
import { call, submitIntake } from './support/through-gateway';

// Issue 22: the operations console in Debian's Chromium, walked as an operator would, on the whole system with
// mirroring on against the ZGW simulator (faults injected over its HTTP API) and the header stand-in's demo
// identity picker. Every page is checked with axe-core and kept as a screenshot in test-artifacts/console.
const SECRET = 'console-test-zgw-secret-0123456789abcdef';
const CLIENT_ID = 'register';
const SERVICES = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'] as const;

let sim: ZgwSimulator;
let sys: TestSystem;
let browser: Browser;
let events: NatsEvents;
let consumer: DurableConsumer;
const metricsPorts: Record<string, number> = {};
const durable = `console_dl_${randomUUID().slice(0, 8)}`;
let failing = true;
const handled: string[] = [];

beforeAll(async () => {
  sim = await startZgwSimulator({ secret: SECRET, clientId: CLIENT_ID, logger: pino({ level: 'silent' }) });
  for (const s of SERVICES) metricsPorts[s] = await freePort();
  const env = Object.fromEntries(SERVICES.map((s) => [s, { METRICS_PORT: String(metricsPorts[s]) }]));
  sys = await startSystem({
    env: {
      ...env,
      applications: {
        ...env['applications'],
        ...zgwSettingsOf(sim, { clientId: CLIENT_ID, secret: SECRET, pollMs: 100 }),
        // The reconciler waits: a divergence stays until the operator retries it.
        ZGW_RECONCILE_INTERVAL_MS: '600000',
      },
    },
  });
  // A consumer of this test that gives up on its events while `failing` is set: the dead letters to replay, on
  // the system's own stream (ADR 0160), where its console looks.
  events = await connectEvents(natsUrl(), 'console-test', createLogger('console-test', 'silent'), {
    name: sys.events.stream,
    prefix: sys.events.prefix,
  });
  consumer = new DurableConsumer({
    events,
    durable,
    filter: `register.console-test.${durable}.>`,
    logger: createLogger('console-test', 'silent'),
    retryDelayMs: 10,
    maxRetryDelayMs: 20,
    maxDeliver: 2,
    handle: async (_s, payload) => {
      if (failing) throw new Error('the database is down');
      handled.push((payload as { id: string }).id);
      return 'handled';
    },
  });
  await consumer.start();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await consumer?.stop();
  await events?.close();
  if (sys) await removeDurableConsumers(natsUrl(), [durable], sys.events.stream);
  await sys?.close();
  await sim?.close();
}, 60_000);

/** A page with its own storage (a fresh sign-in) that collects the page's CSP complaints. */
async function openConsole(): Promise<{ page: Page; csp: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  const csp = cspViolations(page);
  await page.goto(`${sys.gateway}/console/`);
  return { page, csp };
}

async function signIn(page: Page, label: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Aanmelden' }).waitFor();
  await page.getByLabel('Demo-identiteit').selectOption({ label });
  await page.getByRole('button', { name: 'Aanmelden met deze demo-identiteit' }).click();
}

/** Opens a page by its menu link and waits for its heading. */
async function go(page: Page, menu: string, heading = menu): Promise<void> {
  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: menu }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Waits until the console has rendered a route whose fragment contains `part`. */
const rendered = (page: Page, part: string, exact = false) =>
  page.locator(`main[aria-busy="false"][data-rendered${exact ? '' : '*'}="${part}"]`).waitFor();

/** The page passes axe-core and is kept as a screenshot. */
async function check(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect([name, await axeViolations(page)]).toEqual([name, []]);
}

const divergedCase = async (): Promise<string> => {
  const subject = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const { referentie } = await submitIntake(sys.gateway, subject);
  await eventually(async () => {
    const body = (await call(sys.gateway, 'GET', '/api/v1/admin/case-mirror', users.admin)).body as {
      cases: Array<{ referentie: string; state: string }>;
    };
    return body.cases.find((c) => c.referentie === referentie && c.state === 'diverged') ? true : undefined;
  }, 30_000);
  return referentie;
};
const fault = (body: unknown) =>
  fetch(`${sim.url}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the operations console as an operator walks it', () => {
  it(
    'when the demo admin signs in, then the audit rows of ' +
      'requests just made are there and filter by correlation id',
    async () => {
      const { page, csp } = await openConsole();
      await check(page, '01-aanmelden');
      const correlationId = `console-demo-${randomUUID()}`;
      await fetch(`${sys.gateway}/api/v1/admin/system`, {
        headers: { ...users.drafter, 'X-Correlation-Id': correlationId },
      });
      await sys.auditSettled(['gateway']);

      await signIn(page, 'Beheerder (rol admin)');
      await page.getByRole('heading', { level: 1, name: 'Auditlog' }).waitFor();
      await page.getByRole('textbox', { name: 'Correlatie-id' }).fill(correlationId);
      await page.getByRole('button', { name: 'Filteren' }).click();
      await rendered(page, `correlationId=${correlationId}&limit=`);
      const rows = page.getByRole('table', { name: 'Auditregels, nieuwste eerst' }).locator('tbody tr');
      await expect_(async () => (await rows.count()) === 1);
      expect(await rows.first().innerText()).toMatch(/system:read\s+\/api\/v1\/admin\/system\s+Geweigerd\s+drafter/);
      await page.getByRole('link', { name: `Alle regels van correlatie-id ${correlationId}` }).click();
      await rendered(page, `#/audit?correlationId=${correlationId}`, true);
      expect(await rows.count()).toBe(1);
      await check(page, '02-auditlog');
      expect(csp).toEqual([]);
    },
  );

  it(
    'when the operator opens another page while the first still loads, then the page asked for last is shown ' +
      'and the read of the first page is cancelled',
    async () => {
      const { page, csp } = await openConsole();
      // The audit log's read is held in the browser until the operator has moved on.
      let held!: () => void;
      let release!: () => void;
      const auditAsked = new Promise<void>((resolve) => (held = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        '**/api/v1/admin/audit?**',
        async (route) => {
          held();
          await released;
          // A request the page has cancelled meanwhile cannot be continued.
          await route.continue().catch(() => undefined);
        },
        { times: 1 },
      );
      const auditCancelled = page.waitForEvent('requestfailed', {
        predicate: (r) => r.url().includes('/api/v1/admin/audit?'),
      });
      await signIn(page, 'Beheerder (rol admin)');
      await auditAsked;

      await go(page, 'Functieschakelaars');
      release();
      expect((await auditCancelled).failure()?.errorText).toBe('net::ERR_ABORTED');
      await rendered(page, '#/schakelaars', true);
      expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Functieschakelaars']);
      expect(await page.title()).toBe('Functieschakelaars – Beheerconsole Register');
      expect(csp).toEqual([]);
    },
  );

  it(
    'when a case diverges through a zaaksysteem fault, then the case mirror shows it (past the window marked), ' +
      'and a retry after the fault is cleared heals it with a zaaksysteem-retry audit row',
    async () => {
      expect((await fault({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'status', status: 503 })).status).toBe(
        201,
      );
      const one = await divergedCase();
      const late = await divergedCase();
      // The reconciler's 48 hours are over for `late`.
      await sys.query(
        'applications',
        "UPDATE case_mirrors SET diverged_at = diverged_at - interval '49 hours' WHERE referentie = $1",
        [late],
      );
      const { page, csp } = await openConsole();
      await signIn(page, 'Beheerder (rol admin)');

      await go(page, 'Zaakspiegeling');
      const table = page.getByRole('table', { name: 'Zaken die openstaan of afwijken' });
      const rowOf = (referentie: string) => table.locator('tbody tr', { hasText: referentie });
      expect(await rowOf(one).innerText()).toMatch(/Afwijkend\s+status:ingediend\s+1\s+rol:initiator/);
      expect(await rowOf(late).innerText()).toContain('Buiten herstelvenster');
      expect(await rowOf(one).innerText()).not.toContain('Buiten herstelvenster');
      await check(page, '03-zaakspiegeling-afwijkend');

      expect((await fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' })).status).toBe(204);
      await page.getByRole('button', { name: `Opnieuw proberen: ${one}` }).click();
      await page.getByText(`Opnieuw geprobeerd: ${one}.`).waitFor();
      await page.getByRole('checkbox', { name: `Selecteer ${late}` }).check();
      await page.getByRole('button', { name: 'Geselecteerde zaken opnieuw proberen' }).click();
      await page.getByText(`Opnieuw geprobeerd: ${late}.`).waitFor();

      await expect_(async () => {
        await page.getByRole('button', { name: 'Vernieuwen' }).click();
        await page.getByRole('heading', { level: 1, name: 'Zaakspiegeling' }).waitFor();
        return (await page.getByText(one).count()) === 0 && (await page.getByText(late).count()) === 0;
      });
      const counts = await page.locator('dl').innerText();
      expect(counts).toMatch(/Hersteld in de laatste 24 uur\s+2/);
      expect(counts).toMatch(/Buiten herstelvenster\s+0/);
      await check(page, '04-zaakspiegeling-hersteld');

      await sys.auditSettled(['applications']);
      await go(page, 'Auditlog');
      await page.getByRole('textbox', { name: 'Actie', exact: true }).fill('zaaksysteem-retry');
      await page.getByRole('button', { name: 'Filteren' }).click();
      await rendered(page, 'action=zaaksysteem-retry');
      const audit = page.getByRole('table', { name: 'Auditregels, nieuwste eerst' });
      await audit.locator('tbody tr', { hasText: `case/${one}` }).waitFor();
      expect(await audit.locator('tbody tr', { hasText: `case/${one}` }).innerText()).toMatch(
        /zaaksysteem-retry\s+case\/\S+\s+Toegestaan\s+admin/,
      );
      expect(await audit.locator('tbody tr', { hasText: `case/${late}` }).count()).toBe(1);
      expect(csp).toEqual([]);
    },
  );

  it(
    'when a consumer gave up on an event, then the operator inspects it, ' +
      'replays it after confirming, and it is processed once',
    async () => {
      const id = randomUUID();
      await events.publish(
        `register.console-test.${durable}.happened`,
        JSON.stringify({ id, type: 'console.test', correlationId: `corr-${id}` }),
        id,
      );
      await expect_(async () => {
        const letters = (await call(sys.gateway, 'GET', '/api/v1/admin/dead-letters', users.admin)).body as Array<{
          consumer: string;
        }>;
        return letters.some((l) => l.consumer === durable);
      });
      const { page, csp } = await openConsole();
      await signIn(page, 'Beheerder (rol admin)');
      await go(page, 'Onbestelbare berichten');
      const row = page.locator('tbody tr', { hasText: durable });
      await row.getByText(/^Bekijken/).click();
      expect(await row.innerText()).toContain(id);
      await check(page, '05-onbestelbare-berichten');
      failing = false;

      await row.getByRole('button', { name: /^Opnieuw aanbieden/ }).click();
      await page.getByRole('alertdialog').waitFor();
      await check(page, '06-onbestelbare-berichten-bevestigen');
      await page.getByRole('button', { name: 'Ja, opnieuw aanbieden' }).click();
      await page.getByText(/is opnieuw aangeboden\./).waitFor();

      await expect_(async () => handled.includes(id));
      const sentinel = randomUUID();
      await events.publish(`register.console-test.${durable}.sentinel`, JSON.stringify({ id: sentinel }), sentinel);
      await expect_(async () => handled.includes(sentinel));
      expect(handled.filter((h) => h === id)).toEqual([id]);
      expect(await page.getByText(`register.console-test.${durable}.happened`).count()).toBe(0);
      expect(csp).toEqual([]);
    },
  );

  it('when the operator switches a flag off and on, then the API says so each time', async () => {
    const flag = async () =>
      (
        (await call(sys.gateway, 'GET', '/api/v1/flags', users.drafter)).body as Array<{
          key: string;
          enabled: boolean;
        }>
      ).find((f) => f.key === 'herregistratie-aanvragen')?.enabled;
    const { page, csp } = await openConsole();
    await signIn(page, 'Beheerder (rol admin)');
    await go(page, 'Functieschakelaars');
    await check(page, '07-functieschakelaars');

    await page.getByRole('button', { name: 'Uitzetten: herregistratie-aanvragen' }).click();
    await page.getByText('herregistratie-aanvragen staat nu uit.').waitFor();
    expect(await flag()).toBe(false);
    await page.getByRole('button', { name: 'Aanzetten: herregistratie-aanvragen' }).click();
    await page.getByText('herregistratie-aanvragen staat nu aan.').waitFor();
    expect(await flag()).toBe(true);
    expect(csp).toEqual([]);
  });

  it(
    'when the operator opens the system page, then readiness, ' +
      'dependencies, breakers, the mirror and the consumers show',
    async () => {
      const { page, csp } = await openConsole();
      await signIn(page, 'Beheerder (rol admin)');
      await go(page, 'Systeemstatus');
      const deps = await page.getByRole('table', { name: 'Afhankelijkheden' }).innerText();
      expect(deps).toMatch(/Zaaksysteem\s+In orde/);
      expect(deps).toMatch(/PostgreSQL\s+In orde/);
      expect(await page.getByRole('table', { name: 'Stroomonderbrekers van de gateway' }).innerText()).toMatch(
        /documents\s+Gesloten/,
      );
      expect(await page.getByRole('table', { name: 'Duurzame consumenten' }).innerText()).toContain(durable);
      await check(page, '08-systeemstatus');
      expect(csp).toEqual([]);
    },
  );
});

describe('the operations console by keyboard alone', () => {
  /** Presses Tab until the focused element's text or label is `name` (at most 300 times). */
  async function tabTo(page: Page, name: string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = (globalThis as unknown as { document: { activeElement: Record<string, unknown> | null } }).document
          .activeElement as { getAttribute(n: string): string | null; textContent: string | null } | null;
        return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
      });
      if (focused === name) return;
    }
    throw new Error(`${name} is not reachable with Tab`);
  }

  it(
    'when an operator uses only the keyboard, then they skip to the content, ' +
      'sign in, open a page and discard a dead letter after confirming',
    async () => {
      const id = randomUUID();
      failing = true;
      await events.publish(`register.console-test.${durable}.kept`, JSON.stringify({ id, type: 'console.test' }), id);
      await expect_(async () => {
        const letters = (await call(sys.gateway, 'GET', '/api/v1/admin/dead-letters', users.admin)).body as Array<{
          consumer: string;
          subject: string;
        }>;
        return letters.some((l) => l.subject.endsWith(`${durable}.kept`));
      });
      const { page, csp } = await openConsole();
      await page.getByRole('heading', { level: 1, name: 'Aanmelden' }).waitFor();

      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Naar de inhoud');
      await tabTo(page, 'Aanmelden met deze demo-identiteit');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Auditlog' }).waitFor();
      await tabTo(page, 'Onbestelbare berichten');
      await page.keyboard.press('Enter');
      await rendered(page, '#/onbestelbaar');
      const letter = page.locator('tbody tr', { hasText: `${durable}.kept` });
      const letterId = (await letter.locator('td').first().innerText()).trim();
      await tabTo(page, `Verwijderen: bericht ${letterId}`);
      await page.keyboard.press('Enter');
      // The question takes the focus: Enter answers it.
      await page.getByRole('alertdialog').waitFor();
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe(
        'Ja, verwijderen',
      );
      await page.keyboard.press('Enter');
      await page.getByText(`Bericht ${letterId} is verwijderd.`).waitFor();

      expect(await page.locator('tbody tr', { hasText: `${durable}.kept` }).count()).toBe(0);
      failing = false;
      const sentinel = randomUUID();
      await events.publish(`register.console-test.${durable}.sentinel`, JSON.stringify({ id: sentinel }), sentinel);
      await expect_(async () => handled.includes(sentinel));
      expect(handled).not.toContain(id);
      expect(csp).toEqual([]);
    },
  );
});

describe('the operations console for a caller without the admin role', () => {
  const PAGES = ['Auditlog', 'Zaakspiegeling', 'Onbestelbare berichten', 'Functieschakelaars', 'Systeemstatus'];
  it.each([
    ['Aanvrager (rol drafter)', 'aanvrager'],
    ['Beoordelaar (medewerker)', 'beoordelaar'],
  ])('when %s opens every page, then each is the 403 page without data', async (label, name) => {
    const { page, csp } = await openConsole();
    await signIn(page, label);
    for (const [i, menu] of PAGES.entries()) {
      await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: menu }).click();
      await page.getByRole('heading', { level: 1, name: 'Geen toegang (403)' }).waitFor();
      expect(await page.locator('table').count()).toBe(0);
      await check(page, `09-geen-toegang-${name}-${i + 1}`);
    }
    expect(csp).toEqual([]);
  });
});

describe('the alert rules against the running system', () => {
  it('when every service is scraped, then each metric the alerting rules read is one the services export', async () => {
    const exported = new Set<string>();
    for (const s of SERVICES) {
      const text = await (await fetch(`http://127.0.0.1:${metricsPorts[s]}/metrics`)).text();
      // The service's own metrics, not another process's that took its port.
      expect({ s, own: text.includes(`service="${s}"`) }).toEqual({ s, own: true });
      for (const m of text.matchAll(/^# TYPE (\S+) /gm)) exported.add(m[1]!);
    }
    const rules = parse(
      readFileSync(path.resolve(__dirname, '../../../deploy/prometheus/register-alerts.rules.yml'), 'utf8'),
    ) as {
      groups: Array<{ rules: Array<{ expr: string }> }>;
    };
    const used = new Set(
      rules.groups
        .flatMap((g) => g.rules)
        // Label matchers, `by (…)` and PromQL's functions (`min_over_time(`) left out: the metrics' names remain.
        .flatMap(
          (r) => r.expr.replace(/\{[^}]*\}|by \([^)]*\)|[a-z_]+\(/g, '(').match(/[a-z_][a-z0-9_]*_[a-z0-9_]+/g) ?? [],
        ),
    );
    expect(used.size).toBe(7);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

/** Polls a condition (through the page or the API) until it holds. */
async function expect_(condition: () => Promise<boolean>): Promise<void> {
  await eventually(async () => ((await condition()) ? true : undefined), 30_000, 200);
}
