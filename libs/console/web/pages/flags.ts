import { api, requireCapability } from '../api.js';
import { h, on, replace, ui } from '../dom.js';
import type { Page } from './page.js';
import type { Schema } from '@register/api-types';

type Flag = Schema<'FeatureFlag'>;

/** Feature flags: each one's state and a switch (needs flags:write, the admin role). */
export const flagsPage: Page = {
  path: 'schakelaars',
  title: 'Functieschakelaars',
  async render(main, params) {
    await requireCapability('flags:write');
    const { body } = await api<Flag[]>('GET', '/api/v1/flags');
    const toggle = (flag: Flag & { key: string }) => {
      const verb = flag.enabled ? 'Uitzetten' : 'Aanzetten';
      return on(ui.button(verb, 'secondary', { 'aria-label': `${verb}: ${flag.key}` }), 'click', async () => {
        await api('PUT', `/api/v1/admin/flags/${encodeURIComponent(flag.key)}`, { enabled: !flag.enabled });
        const state = flag.enabled ? 'uit' : 'aan';
        location.hash = `/schakelaars?melding=${encodeURIComponent(`${flag.key} staat nu ${state}.`)}&t=${Date.now()}`;
      });
    };
    const notice = params.get('melding');
    const flags = body.filter((f): f is Flag & { key: string } => f.key !== null);
    replace(
      main,
      ui.heading(1, 'Functieschakelaars', { tabindex: '-1' }),
      ui.paragraph('Functies van het register die beheerders aan- en uitzetten. Elke wijziging komt in de auditlog.'),
      notice ? ui.alert('ok', notice) : null,
      ui.table(
        'Functieschakelaars',
        ['Schakelaar', 'Omschrijving', 'Staat', 'Actie'],
        flags.map((f) => [h('code', {}, f.key), f.description ?? '–', f.enabled ? 'Aan' : 'Uit', toggle(f)]),
      ),
    );
  },
};
