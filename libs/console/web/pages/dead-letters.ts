import { api, requireCapability } from '../api.js';
import { h, on, replace, ui } from '../dom.js';
import { when } from '../format.js';
import type { Page } from './page.js';
import type { Schema } from '@register/api-types';

type DeadLetter = Schema<'DeadLetter'>;

type Action = 'replay' | 'discard';
const ACTION = {
  replay: { verb: 'Opnieuw aanbieden', question: 'opnieuw aanbieden aan zijn consument', done: 'opnieuw aangeboden' },
  discard: { verb: 'Verwijderen', question: 'definitief verwijderen zonder af te leveren', done: 'verwijderd' },
} as const;

function details(letter: DeadLetter): HTMLElement {
  return h(
    'details',
    {},
    h('summary', {}, `Bekijken (bericht ${letter.id})`),
    ui.dataList([
      ['Gebeurtenis-id', letter.eventId ?? '–'],
      ['Soort gebeurtenis', letter.eventType ?? '–'],
      [
        'Correlatie-id',
        letter.correlationId
          ? ui.link(letter.correlationId, `#/audit?correlationId=${encodeURIComponent(letter.correlationId)}`)
          : '–',
      ],
      ['Afleveringen', String(letter.deliveries)],
    ]),
  );
}

/** Asks before acting; the question takes the focus, so a keyboard user answers it at once. */
function confirmPanel(letter: DeadLetter, action: Action, host: HTMLElement): void {
  const yes = on(ui.button(`Ja, ${ACTION[action].verb.toLowerCase()}`, 'primary'), 'click', async () => {
    if (action === 'replay') await api('POST', `/api/v1/admin/dead-letters/${letter.id}/replay`, {});
    else await api('DELETE', `/api/v1/admin/dead-letters/${letter.id}`);
    location.hash =
      `/onbestelbaar?melding=${encodeURIComponent(`Bericht ${letter.id} is ${ACTION[action].done}.`)}` +
      `&t=${Date.now()}`;
  });
  const no = on(ui.button('Annuleren'), 'click', () => host.replaceChildren());
  const question = h(
    'div',
    {
      class: 'utrecht-alert utrecht-alert--warning',
      role: 'alertdialog',
      'aria-labelledby': 'bevestig-vraag',
      tabindex: '-1',
    },
    h(
      'div',
      { class: 'utrecht-alert__content' },
      h(
        'p',
        { class: 'nl-paragraph', id: 'bevestig-vraag' },
        `Wilt u bericht ${letter.id} (${letter.subject}, consument ${letter.consumer}) ${ACTION[action].question}?`,
      ),
      h('div', { class: 'utrecht-button-group' }, yes, no),
    ),
  );
  replace(host, question);
  yes.focus();
}

/** Dead letters: what a consumer gave up on; inspect, replay or discard (each after a confirmation). */
export const deadLettersPage: Page = {
  path: 'onbestelbaar',
  title: 'Onbestelbare berichten',
  async render(main, params) {
    await requireCapability('audit:read');
    const { body } = await api<DeadLetter[]>('GET', '/api/v1/admin/dead-letters');
    const confirmHost = h('div', { class: 'console-confirm' });
    const actions = (letter: DeadLetter) =>
      h(
        'div',
        { class: 'utrecht-button-group' },
        on(
          ui.button(ACTION.replay.verb, 'secondary', { 'aria-label': `${ACTION.replay.verb}: bericht ${letter.id}` }),
          'click',
          () => confirmPanel(letter, 'replay', confirmHost),
        ),
        on(
          ui.button(ACTION.discard.verb, 'secondary', { 'aria-label': `${ACTION.discard.verb}: bericht ${letter.id}` }),
          'click',
          () => confirmPanel(letter, 'discard', confirmHost),
        ),
      );
    const notice = params.get('melding');
    replace(
      main,
      ui.heading(1, 'Onbestelbare berichten', { tabindex: '-1' }),
      ui.paragraph(
        'Gebeurtenissen die een consument na herhaalde pogingen opgaf. ' +
          'De inhoud van een gebeurtenis wordt niet getoond.',
      ),
      notice ? ui.alert('ok', notice) : null,
      confirmHost,
      body.length === 0
        ? ui.paragraph('Er zijn geen onbestelbare berichten.')
        : ui.table(
            'Onbestelbare berichten, oudste eerst',
            ['Bericht', 'Consument', 'Onderwerp', 'Reden', 'Opgegeven op', 'Details', 'Acties'],
            body.map((l) => [l.id, l.consumer, l.subject, l.reason, when(l.failedAt), details(l), actions(l)]),
          ),
    );
  },
};
