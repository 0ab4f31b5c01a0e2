import type { LetterModel, LetterParagraph, LetterRun } from './letter-model';
import { LOGO_BOX, type PdfJob } from './pdf-renderer';

const MM = 72 / 25.4;
/** The footer (contact, legal text, page number) sits in the bottom margin; below this it would not fit. */
export const FOOTER_MIN_MM = 15;

export const mmToPt = (mm: number) => Math.round(mm * MM * 100) / 100;

function run(r: LetterRun): Record<string, unknown> | string {
  if (r.lineBreak) return '\n';
  return {
    text: r.text,
    ...(r.bold ? { bold: true } : {}),
    ...(r.italic ? { italics: true } : {}),
    ...(r.underline ? { decoration: 'underline' } : {}),
  };
}

const paragraph = (p: LetterParagraph) => ({ text: p.runs.map(run) });

/** Paragraphs as pdfmake nodes, consecutive list items of one kind in one list. */
function body(items: readonly LetterParagraph[]): unknown[] {
  const nodes: unknown[] = [];
  for (let i = 0; i < items.length;) {
    const kind = items[i]!.list;
    if (kind === null) {
      nodes.push({ ...paragraph(items[i]!), margin: [0, 0, 0, 6] });
      i += 1;
      continue;
    }
    const list: unknown[] = [];
    for (; i < items.length && items[i]!.list === kind; i++) list.push(paragraph(items[i]!));
    nodes.push({ [kind === 'bullet' ? 'ul' : 'ol']: list, margin: [0, 0, 0, 6] });
  }
  return nodes;
}

/**
 * The letter as a pdfmake document (ADR 0010): A4 with the template's margins, the logo and return
 * address on page 1, the signature block, and the footer with "Pagina x van y" on every page (added by the
 * renderer, as it is a function of the page). Plain data, so it crosses to a worker thread.
 */
export function letterPdfJob(model: LetterModel): PdfJob {
  const m = model.margins;
  const margins = [mmToPt(m.leftMm), mmToPt(m.topMm), mmToPt(m.rightMm), mmToPt(Math.max(m.bottomMm, FOOTER_MIN_MM))];
  const content: unknown[] = [
    {
      columns: [
        { width: LOGO_BOX.width, text: '' },
        { width: '*', text: model.orgName, bold: true, fontSize: 12, alignment: 'right' },
      ],
      margin: [0, 0, 0, 24],
    },
    { text: model.returnAddress ? `Retouradres: ${model.returnAddress}` : '', fontSize: 7, margin: [0, 0, 0, 4] },
    { text: model.addressee ?? '', margin: [0, 0, 0, 24] },
  ];
  for (const section of model.sections) {
    if (section.sectionKey === 'bezwaar' && section.title)
      content.push({ text: section.title, bold: true, margin: [0, 6, 0, 2] });
    content.push(...body(section.paragraphs));
    if (section.sectionKey === 'kenmerk') content.push({ text: '', margin: [0, 0, 0, 12] });
  }
  const s = model.signature;
  content.push({
    stack: [
      s.closing ?? '',
      { text: ' ', margin: [0, 18, 0, 0] },
      { text: s.name ?? '', bold: true },
      s.role ?? '',
      model.orgName,
    ],
    margin: [0, 18, 0, 0],
    unbreakable: true,
  });
  return {
    doc: {
      pageSize: 'A4',
      pageMargins: margins,
      info: { title: model.title, author: model.orgName, creator: 'register letters', producer: 'register letters' },
      content,
      defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.2 },
    },
    footer: { contact: model.footer.contact, legal: model.footer.legal, leftPt: margins[0]!, rightPt: margins[2]! },
    logo: model.logo,
    creationDate: `${model.letterDate}T00:00:00.000Z`,
  };
}
