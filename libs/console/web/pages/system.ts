import { api, requireCapability } from '../api.js';
import { h, on, replace, ui } from '../dom.js';
import { yesNo } from '../format.js';
import type { Page } from './page.js';
import type { Schema } from '@register/api-types';

type SystemStatus = Schema<'SystemStatus'>;

const STATUS = { ok: 'In orde', unavailable: 'Niet bereikbaar', 'not-configured': 'Niet ingesteld' } as const;
const DEPENDENCY: Record<string, string> = {
  postgresql: 'PostgreSQL',
  nats: 'NATS',
  s3: 'S3-opslag',
  zaaksysteem: 'Zaaksysteem',
  'identity-provider': 'Identiteitsaanbieder',
};

const checks = (c: Record<string, boolean>) =>
  h(
    'ul',
    { class: 'utrecht-unordered-list' },
    ...Object.entries(c).map(([name, ok]) => h('li', {}, `${name}: ${ok ? 'in orde' : 'niet gereed'}`)),
  );

/** System: each service's readiness, the dependencies, the gateway's breakers, the backlogs. */
export const systemPage: Page = {
  path: 'systeem',
  title: 'Systeemstatus',
  async render(main) {
    await requireCapability('audit:read');
    const { body } = await api<SystemStatus>('GET', '/api/v1/admin/system');
    const mirror = body.caseMirror;
    replace(
      main,
      ui.heading(1, 'Systeemstatus', { tabindex: '-1' }),
      h(
        'div',
        { class: 'utrecht-button-group' },
        on(ui.button('Vernieuwen'), 'click', () => {
          location.hash = `/systeem?t=${Date.now()}`;
        }),
      ),
      ui.table(
        'Diensten',
        ['Dienst', 'Gereed', 'Controles'],
        body.services.map((s) => [s.name, yesNo(s.ready), checks(s.checks)]),
      ),
      ui.table(
        'Afhankelijkheden',
        ['Afhankelijkheid', 'Staat'],
        body.dependencies.map((d) => [DEPENDENCY[d.name] ?? d.name, STATUS[d.status]]),
      ),
      ui.table(
        'Stroomonderbrekers van de gateway',
        ['Dienst', 'Stroomonderbreker'],
        body.breakers.map((b) => [
          b.upstream,
          b.state === 'open' ? 'Open: de gateway antwoordt meteen 503' : 'Gesloten',
        ]),
      ),
      ui.heading(2, 'Zaakspiegeling'),
      mirror
        ? ui.dataList([
            ['Ingeschakeld', yesNo(mirror.enabled)],
            ['Achterstand (openstaand)', String(mirror.backlog)],
            ['Afwijkend', String(mirror.diverged)],
            ['Buiten herstelvenster', String(mirror.pastWindow)],
          ])
        : ui.alert('warning', 'De dienst applications antwoordt niet: de zaakspiegeling is onbekend.'),
      ui.table(
        'Duurzame consumenten',
        ['Consument', 'Openstaande gebeurtenissen'],
        body.consumers.map((c) => [c.name, String(c.pending)]),
      ),
    );
  },
};
