import pino from 'pino';
import { PdfWorkerPool } from '../src/adapters/pdf-pool';
import type { LetterSection } from '../src/content/content.schemas';
import { composeSections } from '../src/passages/compose';
import { PassageLibrary } from '../src/passages/passage-library';
import { PASSAGES_SEED } from '../src/passages/passages.seed';
import { richText } from '../src/passages/rich-text';
import { renderLetterHtml } from '../src/rendering/letter-html';
import { resolveLetter, type LetterFacts, type LetterLogo } from '../src/rendering/letter-model';
import { FOOTER_MIN_MM, letterPdfJob, mmToPt } from '../src/rendering/letter-pdf';
import { safeLogo } from '../src/rendering/logo-safety';
import { TEMPLATES_SEED } from '../src/templates/templates.seed';
import type { TemplateContent } from '../src/templates/templates.schemas';
import { pdfImageCount, pdfPageSizes, pdfText, pngLogo, sha256 } from './support/pdf';

// The rendering rules of ADR 0010 on the real renderer: pdfmake on the service's worker pool.
const pool = new PdfWorkerPool({ size: 1, maxQueue: 50, timeoutMs: 30_000, logger: pino({ level: 'silent' }) });
afterAll(() => pool.close());

const library = new PassageLibrary(PASSAGES_SEED.map((p) => ({ ...p, version: 1 })));
const template: TemplateContent = TEMPLATES_SEED[0]!.content;
const facts: LetterFacts = {
  zorgverlenerNaam: 'A. de Vries',
  registerNummerMasked: '********101',
  beroep: 'arts',
  referentie: 'AV-2026-000042',
  besluitDatum: '2026-11-20',
  toelichting: 'U heeft te weinig uren gewerkt.',
  letterDate: '2026-11-22',
};
let n = 0;
const sections = (besluit: 'toekennen' | 'afwijzen' = 'afwijzen') =>
  composeSections(library, 'arts', besluit, () => `b${++n}`);

/** A letter with `extra` more paragraphs of own text in the kern section: long enough for a second page. */
function longer(extra: number): LetterSection[] {
  const s = sections();
  const filler =
    'Wij hebben bij de beoordeling alle stukken betrokken die u ' +
    'heeft meegestuurd, en de regels die voor uw beroep gelden. ';
  s[2]!.blocks!.push({
    type: 'tekst',
    blockId: 'lang',
    content: richText(...Array.from({ length: extra }, (_, i) => `${i + 1}. ${filler.repeat(3)}`)),
    sourcePassageId: null,
    sourceVersion: null,
    edited: null,
  });
  return s;
}

const render = (
  s: LetterSection[],
  t: TemplateContent = template,
  f: LetterFacts = facts,
  logo: LetterLogo | null = null,
) => pool.render(letterPdfJob(resolveLetter(s, t, f, logo)));

describe('the letter as HTML', () => {
  it('when any text carries markup, then every text is escaped and the page has no markup of its own making', () => {
    const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> & \'quote\'';
    const s = sections();
    s[2]!.blocks!.push({
      type: 'tekst',
      blockId: 'x',
      content: richText(hostile),
      sourcePassageId: null,
      sourceVersion: null,
      edited: null,
    });
    const html = renderLetterHtml(
      resolveLetter(
        s,
        { ...template, orgName: '<b>Org</b>', footerLegal: '</footer><script>1</script>' },
        { ...facts, zorgverlenerNaam: '<i>Naam</i>' },
        null,
      ),
    );
    expect(html).not.toMatch(/<script|<img src=x|<b>Org|<i>Naam/);
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;quote&#39;',
    );
    expect(html).toContain('&lt;b&gt;Org&lt;/b&gt;');
    expect(html).toContain('&lt;i&gt;Naam&lt;/i&gt;');
  });

  it.each(PASSAGES_SEED.map((p) => [p.passageId!, p] as const))(
    'when shipped passage %s is in a letter, then every placeholder in it is resolved (none left as {key})',
    (_id, passage) => {
      const s = sections();
      // Only this passage: the other sections' own texts are checked under their own names.
      for (const section of s) section.blocks = [];
      s.find((x) => x.sectionKey === passage.sectionKey)!.blocks = [
        {
          type: 'passage',
          blockId: 'p',
          content: passage.content,
          sourcePassageId: passage.passageId,
          sourceVersion: 1,
          edited: false,
        },
      ];
      const html = renderLetterHtml(resolveLetter(s, template, facts, null));
      expect(html).not.toMatch(/\{[A-Za-z.]+\}/);
    },
  );

  it('when a shipped text writes a placeholder in bold, then it is a bold placeholder, not the text of its key', () => {
    expect(
      richText('als **{beroep.naam}** onder _nummer {zorgverlener.registerNummer}_.').paragraphs![0]!.nodes,
    ).toEqual([
      { type: 'text', text: 'als ', marks: [], key: null },
      { type: 'placeholder', text: null, marks: ['bold'], key: 'beroep.naam' },
      { type: 'text', text: ' onder ', marks: [], key: null },
      { type: 'text', text: 'nummer ', marks: ['italic'], key: null },
      { type: 'placeholder', text: null, marks: ['italic'], key: 'zorgverlener.registerNummer' },
      { type: 'text', text: '.', marks: [], key: null },
    ]);
  });

  it('when placeholders are resolved, then the register number stays masked and the letter reads as sent', () => {
    const html = renderLetterHtml(resolveLetter(sections('toekennen'), template, facts, null));
    expect(html).toContain('Ons kenmerk: AV-2026-000042');
    expect(html).toContain('Datum: 22 november 2026');
    expect(html).toContain('onder registernummer ********101');
    expect(html).toContain('Retouradres: Postbus 90001, 2509 LR Den Haag');
    expect(html).toContain('@page { size: A4; margin: 25mm 20mm 25mm 25mm; }');
    expect(html).toContain('<ul><li>uw naam en adres;</li>');
  });
});

describe('the letter as PDF', () => {
  it(
    'when a letter runs over two pages, then it is A4, the footer and "Pagina x van ' +
      'y" are on every page, the letterhead on page 1 only, the signature at the end',
    async () => {
      const { pages } = await pdfText(await render(longer(14)));
      expect(pages).toHaveLength(2);
      expect(await pdfPageSizes(await render(longer(14)))).toEqual([
        { width: 595, height: 842 },
        { width: 595, height: 842 },
      ]);
      pages.forEach((page, i) => {
        expect(page).toContain(`Pagina ${i + 1} van 2`);
        expect(page).toContain('www.register.example.nl');
        expect(page).toContain('onderdeel van het ministerie');
      });
      expect(pages[0]).toContain('Retouradres: Postbus 90001, 2509 LR Den Haag');
      expect(pages[1]).not.toContain('Retouradres');
      expect(pages[1]).toMatch(/Met vriendelijke groet,\s+drs\. M\. de Boer\s+Hoofd Registratie/);
    },
  );

  it(
    "when the template's margins change, then the page uses them (wider margins: " +
      'more lines), and a bottom margin too small for the footer is raised to fit it',
    async () => {
      const job = letterPdfJob(
        resolveLetter(
          sections(),
          { ...template, margins: { topMm: 10, rightMm: 30, bottomMm: 5, leftMm: 40 } },
          facts,
          null,
        ),
      );
      expect(job.doc['pageMargins']).toEqual([mmToPt(40), mmToPt(10), mmToPt(30), mmToPt(FOOTER_MIN_MM)]);
      const narrow = await pdfText(
        await render(longer(10), { ...template, margins: { topMm: 20, rightMm: 10, bottomMm: 20, leftMm: 10 } }),
      );
      const wide = await pdfText(
        await render(longer(10), { ...template, margins: { topMm: 20, rightMm: 60, bottomMm: 20, leftMm: 60 } }),
      );
      const lines = (t: string) => t.split('\n').filter((l) => l.trim() !== '').length;
      expect(lines(wide.text)).toBeGreaterThan(lines(narrow.text) + 10);
      expect(wide.pages.length).toBeGreaterThan(narrow.pages.length);
    },
  );

  it(
    'when the same letter is rendered twice, ' + 'then the bytes are identical; another letter date gives other bytes',
    async () => {
      const a = await render(sections());
      const b = await render(sections());
      expect(a.subarray(0, 5).toString()).toBe('%PDF-');
      expect(sha256(a)).toBe(sha256(b));
      expect(sha256(await render(sections(), template, { ...facts, letterDate: '2026-11-23' }))).not.toBe(sha256(a));
    },
  );

  it('when the template has a PNG logo, then it is on page 1', async () => {
    const logo = safeLogo(pngLogo());
    expect(logo?.kind).toBe('png');
    expect(await pdfImageCount(await render(sections(), template, facts, logo))).toBe(1);
    expect(await pdfImageCount(await render(sections()))).toBe(0);
  });

  it(
    'when the template has a plain SVG logo, ' +
      'then it is drawn (the PDF changes) and the letter still reads the same',
    async () => {
      const logo = safeLogo(
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect ' +
            'width="120" height="40" fill="#154273"/><path d="M10 30 L30 10 L50 30 Z" fill="#fff"/></svg>',
        ),
      );
      expect(logo?.kind).toBe('svg');
      const withLogo = await render(sections(), template, facts, logo);
      expect(sha256(withLogo)).not.toBe(sha256(await render(sections())));
      expect((await pdfText(withLogo)).text).toContain('Wij wijzen uw aanvraag af.');
    },
  );

  it('when an SVG logo passes the checks but cannot be drawn, then the letter is rendered without it', async () => {
    const broken: LetterLogo = { kind: 'svg', data: '<svg xmlns="http://www.w3.org/2000/svg"><rect' };
    const pdf = await render(sections(), template, facts, broken);
    expect(sha256(pdf)).toBe(sha256(await render(sections())));
  });
});

describe('safeLogo', () => {
  const svg = (inner: string, attrs = '') =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
        `width="10" height="10"${attrs}>${inner}</svg>`,
    );
  it.each<[string, Buffer]>([
    ['a script', svg('<script>alert(1)</script>')],
    ['an event handler', svg('<rect width="1" height="1"/>', ' onload="alert(1)"')],
    ['an external image', svg('<image href="https://evil.example/x.png" width="10" height="10"/>')],
    ['a local file image', svg('<image xlink:href="/etc/passwd" width="10" height="10"/>')],
    ['a reference to another document', svg('<use xlink:href="other.svg#logo"/>')],
    ['foreign content', svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>')],
    ['a CSS import', svg('<style>@import url(https://evil.example/a.css);</style>')],
    ['an external paint', svg('<rect width="1" height="1" fill="url(https://evil.example/#p)"/>')],
    [
      'an entity',
      Buffer.from(
        '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
      ),
    ],
    ['a javascript: link', svg('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>')],
    ['no SVG at all', Buffer.from('GIF89a')],
    ['a NUL byte', Buffer.concat([svg('<title>x</title>'), Buffer.from([0xc3, 0x28, 0x00])])],
  ])('when the SVG has %s, then it is not rendered at all', (_name, bytes) => {
    expect(safeLogo(bytes)).toBeNull();
  });

  it('when the SVG refers only to its own fragments, then it is kept', () => {
    expect(
      safeLogo(
        svg('<defs><linearGradient id="g"/></defs><rect width="10" height="10" fill="url(#g)"/><use href="#g"/>'),
      )?.kind,
    ).toBe('svg');
  });
});
