import { chooseDemoIdentity, DEMO_IDENTITIES, startSignIn, type ConsoleConfig } from '../auth.js';
import { h, on, replace, ui } from '../dom.js';

/** Sign-in: the issuer's login (OIDC), or the demo identity picker of the header stand-in, clearly marked. */
export function signInPage(main: HTMLElement, config: ConsoleConfig, signedIn: () => void): void {
  if (config.identityProvider === 'oidc') {
    const start = on(ui.button('Aanmelden bij de identiteitsaanbieder', 'primary'), 'click', () => startSignIn(config));
    replace(
      main,
      ui.heading(1, 'Aanmelden', { tabindex: '-1' }),
      ui.paragraph('U meldt zich aan bij de identiteitsaanbieder van de organisatie. Alleen beheerders zien gegevens.'),
      start,
    );
    return;
  }
  const select = ui.select(
    'demo-identiteit',
    DEMO_IDENTITIES.map((d) => [d.id, d.label]),
    'beheerder',
  );
  const form = h(
    'form',
    { class: 'console-form', 'aria-labelledby': 'aanmelden-kop' },
    ui.field('demo-identiteit', 'Demo-identiteit', select),
    h(
      'button',
      { type: 'submit', class: 'utrecht-button utrecht-button--primary-action' },
      'Aanmelden met deze demo-identiteit',
    ),
  );
  on(form, 'submit', (event) => {
    event.preventDefault();
    chooseDemoIdentity(select.value);
    signedIn();
  });
  replace(
    main,
    ui.heading(1, 'Aanmelden', { tabindex: '-1', id: 'aanmelden-kop' }),
    ui.alert(
      'warning',
      h('strong', {}, 'Demo-omgeving. '),
      'Er is geen echte aanmelding: u kiest zelf een identiteit, en de console stuurt die als ' +
        'X-Subject- en X-Role-headers mee (de header-stand-in). De console zelf heeft geen rechten.',
    ),
    form,
  );
}
