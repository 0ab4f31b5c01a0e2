import { replace, ui } from '../dom.js';

/** What a caller without the admin role sees instead of any data. */
export function forbiddenPage(main: HTMLElement): void {
  replace(
    main,
    ui.heading(1, 'Geen toegang (403)', { tabindex: '-1' }),
    ui.alert('error', 'U hebt niet de rol beheerder. Deze pagina toont alleen gegevens aan beheerders.'),
    ui.paragraph('Meld u af en meld u aan met een account dat de rol beheerder (admin) heeft.'),
  );
}
