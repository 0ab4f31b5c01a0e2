import { api, ApiError, requireCapability } from '../api.js';
import { h, on, replace, ui } from '../dom.js';
import { DECISIONS, when } from '../format.js';
import type { Page } from './page.js';
import type { Schema } from '@register/api-types';

type AuditRow = Schema<'AuthzAudit'>;

const BUTTON = 'utrecht-button utrecht-button--secondary-action';
const FILTERS = ['action', 'correlationId', 'decision', 'from', 'to', 'limit'] as const;

/** `datetime-local` holds the operator's local time; the API wants an instant. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : '');
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

function filterForm(params: URLSearchParams): HTMLFormElement {
  const decisions: Array<[string, string]> = [['', 'Alle besluiten'], ...Object.entries(DECISIONS)];
  const form = h(
    'form',
    { class: 'console-form console-filters', 'aria-label': 'Filters' },
    ui.field('action', 'Actie', ui.textbox('action', params.get('action') ?? '')),
    ui.field('correlationId', 'Correlatie-id', ui.textbox('correlationId', params.get('correlationId') ?? '')),
    ui.field('decision', 'Besluit', ui.select('decision', decisions, params.get('decision') ?? '')),
    ui.field('from', 'Vanaf (inclusief)', ui.textbox('from', toLocal(params.get('from')), { type: 'datetime-local' })),
    ui.field('to', 'Tot (exclusief)', ui.textbox('to', toLocal(params.get('to')), { type: 'datetime-local' })),
    ui.field(
      'limit',
      'Rijen per pagina',
      ui.select(
        'limit',
        [
          ['25', '25'],
          ['50', '50'],
          ['100', '100'],
        ],
        params.get('limit') ?? '50',
      ),
    ),
    h(
      'div',
      { class: 'utrecht-button-group' },
      h('button', { type: 'submit', class: 'utrecht-button utrecht-button--primary-action' }, 'Filteren'),
      h('a', { class: 'utrecht-button utrecht-button--secondary-action', href: '#/audit' }, 'Filters wissen'),
    ),
  );
  on(form, 'submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const query = new URLSearchParams();
    for (const name of FILTERS) {
      const entry = data.get(name);
      const raw = (typeof entry === 'string' ? entry : '').trim();
      const value = name === 'from' || name === 'to' ? toInstant(raw) : raw;
      if (value) query.set(name, value);
    }
    location.hash = `/audit?${query.toString()}`;
  });
  return form;
}

function rowsTable(rows: AuditRow[]): HTMLElement {
  if (rows.length === 0) return ui.paragraph('Geen auditregels die aan de filters voldoen.');
  return ui.table(
    'Auditregels, nieuwste eerst',
    ['Tijdstip', 'Actie', 'Onderwerp', 'Besluit', 'Rol', 'Correlatie-id'],
    rows.map((r) => [
      when(r.at),
      r.action ?? '–',
      r.resource ?? '–',
      DECISIONS[r.decision ?? ''] ?? r.decision ?? '–',
      r.role ?? '–',
      r.correlationId
        ? ui.link(r.correlationId, `#/audit?correlationId=${encodeURIComponent(r.correlationId)}`, {
            'aria-label': `Alle regels van correlatie-id ${r.correlationId}`,
          })
        : '–',
    ]),
  );
}

/** The audit log: filters, paging (the API's Link), and a correlation id that opens every row of that request. */
export const auditPage: Page = {
  path: 'audit',
  title: 'Auditlog',
  async render(main, params) {
    await requireCapability('audit:read');
    const query = new URLSearchParams();
    for (const name of [...FILTERS, 'cursor']) if (params.get(name)) query.set(name, params.get(name)!);
    if (!query.has('limit')) query.set('limit', '50');
    const heading = ui.heading(1, 'Auditlog', { tabindex: '-1' });
    try {
      const { body, next } = await api<AuditRow[]>('GET', `/api/v1/admin/audit?${query.toString()}`);
      const cursor = params.get('cursor');
      const nextHash = next ? `#/audit?${new URL(next, location.origin).searchParams.toString()}` : null;
      replace(
        main,
        heading,
        ui.paragraph('Wie deed wat, met welk besluit. Een correlatie-id toont alle regels van dat verzoek.'),
        filterForm(params),
        rowsTable(body),
        cursor || nextHash
          ? h(
              'nav',
              { class: 'utrecht-button-group', 'aria-label': 'Paginering' },
              cursor ? h('a', { class: BUTTON, href: `#/audit?${withoutCursor(query)}` }, 'Eerste pagina') : null,
              nextHash ? h('a', { class: BUTTON, href: nextHash }, 'Volgende pagina') : null,
            )
          : null,
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400) throw err;
      const fields = (err.problem?.errors ?? []).map((e) => `${e.field}: ${e.detail}`).join('; ');
      replace(main, heading, ui.alert('error', `Ongeldig filter. ${fields}`), filterForm(params));
    }
  },
};

function withoutCursor(query: URLSearchParams): string {
  const copy = new URLSearchParams(query);
  copy.delete('cursor');
  return copy.toString();
}
