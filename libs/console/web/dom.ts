/** A tiny element builder: text is always set as text (never parsed as HTML), so nothing a server sends can run. */
export type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | boolean | undefined | null>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Child | Child[]>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) el.setAttribute(name, '');
    else if (typeof value === 'string') el.setAttribute(name, value);
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Array<Child | Child[]>): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what an element holds. */
export function replace(parent: Element, ...children: Array<Child | Child[]>): void {
  parent.replaceChildren();
  append(parent, children);
}

export function on<K extends keyof HTMLElementEventMap>(
  el: HTMLElement,
  type: K,
  handler: (event: HTMLElementEventMap[K]) => void | Promise<void>,
): HTMLElement {
  el.addEventListener(type, (event) => void handler(event));
  return el;
}

/** NL Design System building blocks used on every page. */
export const ui = {
  heading: (level: 1 | 2 | 3, text: string, attrs: Attrs = {}) =>
    h(`h${level}`, { class: `nl-heading nl-heading--level-${level}`, ...attrs }, text),
  paragraph: (...children: Child[]) => h('p', { class: 'nl-paragraph' }, ...children),
  button: (text: string, kind: 'primary' | 'secondary' | 'subtle' = 'secondary', attrs: Attrs = {}) =>
    h(
      'button',
      {
        type: 'button',
        class: `utrecht-button utrecht-button--${kind}${kind === 'subtle' ? '' : '-action'}`,
        ...attrs,
      },
      text,
    ),
  link: (text: string, href: string, attrs: Attrs = {}) => h('a', { class: 'nl-link', href, ...attrs }, text),
  alert: (type: 'info' | 'ok' | 'warning' | 'error', ...children: Child[]) =>
    h(
      'div',
      { class: `utrecht-alert utrecht-alert--${type}`, role: type === 'error' ? 'alert' : 'status' },
      h('div', { class: 'utrecht-alert__content' }, h('div', { class: 'utrecht-alert__message' }, ...children)),
    ),
  table: (caption: string, headers: string[], rows: Array<Array<Child | Child[]>>) =>
    h(
      'div',
      { class: 'utrecht-table-container' },
      h(
        'table',
        { class: 'utrecht-table utrecht-table--html-table' },
        h('caption', { class: 'utrecht-table__caption' }, caption),
        h(
          'thead',
          { class: 'utrecht-table__header' },
          h(
            'tr',
            { class: 'utrecht-table__row' },
            ...headers.map((t) => h('th', { class: 'utrecht-table__header-cell', scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          { class: 'utrecht-table__body' },
          ...rows.map((cells) =>
            h(
              'tr',
              { class: 'utrecht-table__row' },
              ...cells.map((c) => h('td', { class: 'utrecht-table__cell' }, ...[c].flat())),
            ),
          ),
        ),
      ),
    ),
  dataList: (items: Array<[string, Child]>) =>
    h(
      'dl',
      { class: 'utrecht-data-list utrecht-data-list--rows' },
      ...items.map(([key, value]) =>
        h(
          'div',
          { class: 'utrecht-data-list__item' },
          h('dt', { class: 'utrecht-data-list__item-key' }, key),
          h('dd', { class: 'utrecht-data-list__item-value utrecht-data-list__item-value--html-dd' }, value),
        ),
      ),
    ),
  field: (id: string, label: string, control: HTMLElement, description?: string) =>
    h(
      'div',
      { class: 'utrecht-form-field' },
      h('div', { class: 'utrecht-form-field__label' }, h('label', { class: 'utrecht-form-label', for: id }, label)),
      description ? h('div', { class: 'utrecht-form-field-description', id: `${id}-uitleg` }, description) : null,
      h('div', { class: 'utrecht-form-field__input' }, control),
    ),
  textbox: (id: string, value = '', attrs: Attrs = {}) =>
    h('input', { class: 'utrecht-textbox utrecht-textbox--html-input', id, name: id, value, ...attrs }),
  select: (id: string, options: Array<[string, string]>, selected = '') =>
    h(
      'select',
      { class: 'utrecht-select utrecht-select--html-select', id, name: id },
      ...options.map(([value, text]) => h('option', { value, selected: value === selected }, text)),
    ),
};
