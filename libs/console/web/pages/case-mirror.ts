import { api, ApiError, requireCapability } from '../api.js';
import { h, on, replace, ui } from '../dom.js';
import { when } from '../format.js';
import type { Page } from './page.js';
import type { Schema } from '@register/api-types';

type MirrorCase = Schema<'MirrorCase'>;
type Overview = Schema<'CaseMirrorOverview'>;

const STATE = { owed: 'Openstaand', diverged: 'Afwijkend' } as const;

async function retry(referenties: string[]): Promise<{ done: string[]; failed: string[] }> {
  const done: string[] = [];
  const failed: string[] = [];
  for (const referentie of referenties) {
    try {
      await api('POST', `/api/v1/admin/case-mirror/${encodeURIComponent(referentie)}/retry`, {});
      done.push(referentie);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      failed.push(referentie);
    }
  }
  return { done, failed };
}

function casesTable(cases: MirrorCase[], onRetry: (refs: string[]) => void): HTMLElement {
  if (cases.length === 0) return ui.paragraph('Er is niets openstaand of afwijkend: de zaakspiegeling is bij.');
  const rows = cases.map((c) => {
    const select = h('input', {
      type: 'checkbox',
      class: 'utrecht-checkbox utrecht-checkbox--html-input',
      name: 'selectie',
      value: c.referentie,
      'aria-label': `Selecteer ${c.referentie}`,
    });
    const button = on(
      ui.button('Opnieuw proberen', 'secondary', { 'aria-label': `Opnieuw proberen: ${c.referentie}` }),
      'click',
      () => onRetry([c.referentie]),
    );
    const state = c.pastWindow
      ? [
          STATE[c.state],
          h('br', {}),
          h('strong', { class: 'console-past-window' }, 'Buiten herstelvenster: alleen handmatig herstel'),
        ]
      : [STATE[c.state]];
    return [
      select,
      c.referentie,
      state,
      c.step ?? '–',
      String(c.attempts),
      c.lastError ?? '–',
      when(c.divergedAt),
      when(c.nextAttemptAt),
      button,
    ];
  });
  const table = ui.table(
    'Zaken die openstaan of afwijken',
    [
      'Kies',
      'Referentie',
      'Status',
      'Laatste stap',
      'Pogingen',
      'Laatste fout',
      'Afwijkend sinds',
      'Volgende poging',
      'Actie',
    ],
    rows,
  );
  const retrySelected = on(ui.button('Geselecteerde zaken opnieuw proberen', 'primary'), 'click', () => {
    const picked = [...table.querySelectorAll<HTMLInputElement>('input[name="selectie"]:checked')].map((i) => i.value);
    if (picked.length > 0) onRetry(picked);
  });
  return h('div', {}, table, h('div', { class: 'utrecht-button-group' }, retrySelected));
}

/** The case mirror: counts, every owed or diverged case, retry one or the selected ones, past-window cases marked. */
export const caseMirrorPage: Page = {
  path: 'zaakspiegeling',
  title: 'Zaakspiegeling',
  async render(main, params) {
    await requireCapability('cases:admin');
    const { body } = await api<Overview>('GET', '/api/v1/admin/case-mirror');
    const notice = params.get('melding');
    const onRetry = (refs: string[]) => {
      void retry(refs).then(({ done, failed }) => {
        const parts = [
          done.length ? `Opnieuw geprobeerd: ${done.join(', ')}.` : '',
          failed.length ? `Niet gelukt: ${failed.join(', ')}.` : '',
        ];
        location.hash =
          `/zaakspiegeling?melding=` + `${encodeURIComponent(parts.filter(Boolean).join(' '))}&t=${Date.now()}`;
      });
    };
    const refresh = on(ui.button('Vernieuwen'), 'click', () => {
      location.hash = `/zaakspiegeling?t=${Date.now()}`;
    });
    replace(
      main,
      ui.heading(1, 'Zaakspiegeling', { tabindex: '-1' }),
      ui.paragraph(
        'Wat het register het zaaksysteem nog verschuldigd is, ' +
          'en wat daarbij misging. Een zaak heet hier alleen bij haar referentie.',
      ),
      notice ? ui.alert('ok', notice) : null,
      ui.heading(2, 'Aantallen'),
      ui.dataList([
        ['Openstaand', String(body.counts.owed)],
        ['Afwijkend', String(body.counts.diverged)],
        ['Buiten herstelvenster', String(body.counts.pastWindow)],
        ['Hersteld in de laatste 24 uur', String(body.counts.healedLast24h)],
      ]),
      ui.heading(2, 'Zaken'),
      casesTable(body.cases, onRetry),
      h('div', { class: 'utrecht-button-group' }, refresh),
    );
  },
};
