import type { LetterModel, LetterParagraph, LetterRun } from './letter-model';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every text that reaches the page goes through here: no stored or typed text is ever markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function run(r: LetterRun): string {
  if (r.lineBreak) return '<br>';
  let html = escapeHtml(r.text);
  if (r.underline) html = `<u>${html}</u>`;
  if (r.italic) html = `<em>${html}</em>`;
  if (r.bold) html = `<strong>${html}</strong>`;
  return html;
}

/** Paragraphs, with consecutive list items of one kind gathered into one `<ul>` or `<ol>`. */
function paragraphs(items: readonly LetterParagraph[]): string {
  let html = '';
  let open: 'bullet' | 'ordered' | null = null;
  const close = () => {
    if (open) html += open === 'bullet' ? '</ul>' : '</ol>';
    open = null;
  };
  for (const p of items) {
    const body = p.runs.map(run).join('');
    if (p.list === null) {
      close();
      html += `<p>${body}</p>`;
      continue;
    }
    if (open !== p.list) {
      close();
      html += p.list === 'bullet' ? '<ul>' : '<ol>';
      open = p.list;
    }
    html += `<li>${body}</li>`;
  }
  close();
  return html;
}

function logo(model: LetterModel): string {
  if (!model.logo) return '';
  // An <img> never runs an SVG's scripts or loads what it refers to; the page's CSP allows data: images only.
  const mime = model.logo.kind === 'png' ? 'image/png' : 'image/svg+xml';
  const data = model.logo.kind === 'png' ? model.logo.data : Buffer.from(model.logo.data, 'utf8').toString('base64');
  return `<img class="logo" alt="" src="data:${mime};base64,${data}">`;
}

const lines = (value: string | null) => (value ? escapeHtml(value).replace(/\n/g, '<br>') : '');

/** The letter as HTML, as it would be sent (ADR 0010): letterhead, sections, signature, footer. */
export function renderLetterHtml(model: LetterModel): string {
  const m = model.margins;
  const style = [
    `@page { size: A4; margin: ${m.topMm}mm ${m.rightMm}mm ${m.bottomMm}mm ${m.leftMm}mm; }`,
    'body { font-family: Roboto, Arial, sans-serif; font-size: 10pt; ' +
      'line-height: 1.4; color: #000; max-width: 170mm; margin: 0 auto; }',
    '.briefhoofd { display: flex; justify-content: space-between; ' +
      'align-items: flex-start; } .logo { max-width: 60mm; max-height: 25mm; }',
    '.org { font-weight: bold; font-size: 12pt; } .retouradres { font-size: ' +
      '7pt; margin-top: 12mm; } .geadresseerde { margin-bottom: 10mm; }',
    'section h2 { font-size: 10pt; margin: 6mm 0 1mm; } .ondertekening { margin-top: 8mm; ' +
      '} footer { margin-top: 12mm; font-size: 7.5pt; color: ' +
      '#333; border-top: 0.3pt solid #999; padding-top: 2mm; }',
  ].join('\n');
  const sections = model.sections
    .map(
      (s) =>
        `<section data-section="${escapeHtml(s.sectionKey)}` +
        `">${s.sectionKey === 'bezwaar' && s.title ? `<h2>${escapeHtml(s.title)}</h2>` : ''}` +
        `${paragraphs(s.paragraphs)}</section>`,
    )
    .join('\n');
  const signature =
    `${lines(model.signature.closing)}<br><br><strong>${lines(model.signature.name)}</strong><br>` +
    lines(model.signature.role);
  return `<!doctype html>
<html lang="nl"><head><meta charset="utf-8"><title>${escapeHtml(model.title)}</title><style>${style}</style></head>
<body>
<header class="briefhoofd">${logo(model)}<div class="org">${escapeHtml(model.orgName)}</div></header>
<p class="retouradres">${model.returnAddress ? `Retouradres: ${escapeHtml(model.returnAddress)}` : ''}</p>
<p class="geadresseerde">${lines(model.addressee)}</p>
${sections}
<div class="ondertekening">${signature}</div>
<footer><div>${lines(model.footer.contact)}</div><div>${lines(model.footer.legal)}</div></footer>
</body></html>
`;
}
