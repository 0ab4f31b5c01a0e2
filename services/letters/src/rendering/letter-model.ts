import type { LetterSection, RichTextNode } from '../content/content.schemas';
import { PLACEHOLDER_BY_KEY } from '../content/placeholders';
import type { SectionKey } from '../content/sections';
import type { TemplateContent } from '../templates/templates.schemas';
import { beroepNaam, dutchDate } from './dutch';

export interface LetterRun {
  text: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  /** A hard line break before nothing else: the run carries no text. */
  lineBreak: boolean;
}

export interface LetterParagraph {
  runs: LetterRun[];
  list: 'bullet' | 'ordered' | null;
}

export interface LetterLogo {
  kind: 'png' | 'svg';
  /** PNG bytes as base64, or the SVG text (already checked by `safeLogo`). */
  data: string;
}

/** The letter as it is sent: placeholders resolved, nothing left to look up. Rendered to HTML and to PDF. */
export interface LetterModel {
  title: string;
  letterDate: string;
  orgName: string;
  returnAddress: string | null;
  logo: LetterLogo | null;
  addressee: string | null;
  sections: Array<{ sectionKey: SectionKey; title: string | null; paragraphs: LetterParagraph[] }>;
  signature: { closing: string | null; name: string | null; role: string | null };
  footer: { contact: string | null; legal: string | null };
  margins: TemplateContent['margins'];
}

/** What the placeholders resolve to; the register number arrives masked (ADR 0010). */
export interface LetterFacts {
  zorgverlenerNaam: string | null;
  registerNummerMasked: string | null;
  beroep: string | null;
  referentie: string | null;
  besluitDatum: string | null;
  toelichting: string | null;
  /** YYYY-MM-DD: the day it was sent, or today for a letter not sent yet. */
  letterDate: string;
}

/** What each placeholder filled from the case reads from the letter's facts; null or undefined: not known. */
const FACT_OF = new Map<string, (facts: LetterFacts) => string | null | undefined>([
  ['zorgverlener.naam', (f) => f.zorgverlenerNaam],
  ['zorgverlener.registerNummer', (f) => f.registerNummerMasked],
  ['beroep.naam', (f) => beroepNaam(f.beroep)],
  ['aanvraag.referentie', (f) => f.referentie],
  ['besluit.datum', (f) => dutchDate(f.besluitDatum ?? f.letterDate)],
  ['besluit.toelichting', (f) => f.toelichting ?? ''],
  ['datum.vandaag', (f) => dutchDate(f.letterDate)],
  ['brief.datum', (f) => dutchDate(f.letterDate)],
]);

/** A placeholder's text; one whose fact is not known shows its label as a visible gap. */
function resolvePlaceholder(node: RichTextNode, facts: LetterFacts): string {
  const key = node.key ?? '';
  const missing = `[${PLACEHOLDER_BY_KEY.get(key)?.label ?? key}]`;
  const fact = FACT_OF.get(key);
  // A fillable placeholder: what the drafter filled in.
  if (!fact) return node.text ?? missing;
  return fact(facts) ?? missing;
}

function runOf(node: RichTextNode, facts: LetterFacts): LetterRun {
  const marks = new Set(node.marks ?? []);
  const style = { bold: marks.has('bold'), italic: marks.has('italic'), underline: marks.has('underline') };
  if (node.type === 'hardBreak') return { text: '', bold: false, italic: false, underline: false, lineBreak: true };
  return {
    text: node.type === 'placeholder' ? resolvePlaceholder(node, facts) : (node.text ?? ''),
    ...style,
    lineBreak: false,
  };
}

export function resolveLetter(
  sections: readonly LetterSection[],
  template: TemplateContent,
  facts: LetterFacts,
  logo: LetterLogo | null,
): LetterModel {
  return {
    title: facts.referentie ? `Besluit op uw aanvraag ${facts.referentie}` : 'Besluit op uw aanvraag',
    letterDate: facts.letterDate,
    orgName: template.orgName ?? '',
    returnAddress: template.returnAddress,
    logo,
    addressee: facts.zorgverlenerNaam,
    sections: sections.map((s) => ({
      sectionKey: s.sectionKey,
      title: s.title,
      paragraphs: (s.blocks ?? []).flatMap((b) =>
        (b.content.paragraphs ?? []).map((p) => ({ runs: (p.nodes ?? []).map((n) => runOf(n, facts)), list: p.list })),
      ),
    })),
    signature: { closing: template.signatureClosing, name: template.signatureName, role: template.signatureRole },
    footer: { contact: template.footerContact, legal: template.footerLegal },
    margins: template.margins,
  };
}
