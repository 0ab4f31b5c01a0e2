import { ApiError, Forbidden, Unauthenticated, readsBelongTo, useConfig } from './api.js';
import { finishSignIn, identityHeaders, loadConfig, signOut, signedInAs, type ConsoleConfig } from './auth.js';
import { h, replace, on, ui } from './dom.js';
import { auditPage } from './pages/audit.js';
import { caseMirrorPage } from './pages/case-mirror.js';
import { deadLettersPage } from './pages/dead-letters.js';
import { flagsPage } from './pages/flags.js';
import { forbiddenPage } from './pages/forbidden.js';
import { signInPage } from './pages/sign-in.js';
import { systemPage } from './pages/system.js';
import type { Page } from './pages/page.js';

const PAGES: Page[] = [auditPage, caseMirrorPage, deadLettersPage, flagsPage, systemPage];
const APP_TITLE = 'Beheerconsole Register';

function route(): { page: Page; params: URLSearchParams } {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((p) => p.path === path) ?? auditPage;
  return { page, params: new URLSearchParams(query) };
}

function header(config: ConsoleConfig, current: Page | null): HTMLElement {
  const nav = h(
    'nav',
    { class: 'rhc-nav-bar', 'aria-label': 'Hoofdmenu' },
    h(
      'ul',
      { class: 'rhc-nav-bar__list' },
      ...PAGES.map((p) =>
        h(
          'li',
          {},
          h(
            'a',
            { class: 'rhc-nav-bar__link', href: `#/${p.path}`, 'aria-current': p === current ? 'page' : undefined },
            p.title,
          ),
        ),
      ),
    ),
  );
  const who = signedInAs(config);
  const signOutButton = on(ui.button('Afmelden', 'subtle'), 'click', () => {
    signOut();
    location.hash = '';
    void render(config);
  });
  return h(
    'div',
    { class: 'console-header' },
    h('p', { class: 'console-title' }, APP_TITLE),
    who ? h('p', { class: 'console-identity' }, who, ' ', signOutButton) : null,
    identityHeaders(config) ? nav : null,
  );
}

/** The route being rendered; a newer one cancels it (an operator who clicks on while a page loads). */
let current: AbortController | null = null;

async function render(config: ConsoleConfig): Promise<void> {
  current?.abort();
  const mine = new AbortController();
  current = mine;
  readsBelongTo(mine.signal);
  const top = document.getElementById('kop')!;
  const main = document.getElementById('inhoud')!;
  if (!identityHeaders(config)) {
    replace(top, header(config, null));
    document.title = `Aanmelden – ${APP_TITLE}`;
    signInPage(main, config, () => void render(config));
    return;
  }
  const { page, params } = route();
  replace(top, header(config, page));
  document.title = `${page.title} – ${APP_TITLE}`;
  // While a page loads it says so; once done it names the route it shows (what a test waits for).
  main.setAttribute('aria-busy', 'true');
  main.removeAttribute('data-rendered');
  const rendering = location.hash;
  // The page is built aside and shown only if it is still the route asked for: a slower, older one is dropped.
  const draft = document.createElement('div');
  let title = page.title;
  try {
    await page.render(draft, params);
  } catch (err) {
    if (mine.signal.aborted) return;
    if (err instanceof Unauthenticated) {
      signOut();
      return render(config);
    }
    if (err instanceof Forbidden) {
      title = 'Geen toegang';
      forbiddenPage(draft);
    } else {
      replace(
        draft,
        ui.heading(1, page.title, { tabindex: '-1' }),
        ui.alert(
          'error',
          err instanceof ApiError ? `De server antwoordde: ${err.message}` : 'Er ging iets mis; probeer het opnieuw.',
        ),
      );
    }
  }
  if (mine.signal.aborted) return;
  document.title = `${title} – ${APP_TITLE}`;
  main.replaceChildren(...draft.childNodes);
  main.setAttribute('aria-busy', 'false');
  main.setAttribute('data-rendered', rendering);
  main.querySelector<HTMLElement>('h1')?.focus();
}

async function boot(): Promise<void> {
  const config = await loadConfig();
  useConfig(config);
  try {
    await finishSignIn(config);
  } catch (err) {
    replace(document.getElementById('inhoud')!, ui.alert('error', err instanceof Error ? err.message : String(err)));
  }
  // Routes are `#/<page>`; another fragment (the skip link's `#inhoud`) is the browser's own business.
  window.addEventListener('hashchange', () => {
    if (location.hash.startsWith('#/') || location.hash === '') void render(config);
  });
  await render(config);
}

void boot();
