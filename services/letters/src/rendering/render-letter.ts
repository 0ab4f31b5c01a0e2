import { todayInAmsterdam, type Clock } from '@register/service-kit';
import { visibleSections } from '../briefs/brief-view';
import type { BriefAddress, StoredBrief } from '../briefs/briefs.repository';
import { requireBrief, type BriefDeps } from '../briefs/find-brief';
import type { LetterSection } from '../content/content.schemas';
import { composeSections } from '../passages/compose';
import { mask } from '../shared/text';
import { requireTemplate } from '../templates/manage-templates';
import type { TemplateContent } from '../templates/templates.schemas';
import { amsterdamDate } from './dutch';
import { renderLetterHtml } from './letter-html';
import { resolveLetter, type LetterFacts, type LetterModel } from './letter-model';
import { letterPdfJob } from './letter-pdf';
import { safeLogo } from './logo-safety';
import type { LogoSource } from './logo-source';
import type { PdfRenderer } from './pdf-renderer';

export interface RenderDeps extends BriefDeps {
  clock: Clock;
  logoSource: LogoSource;
  pdf: PdfRenderer;
}

async function logoOf(deps: RenderDeps, template: TemplateContent) {
  if (!template.logoDocumentId) return null;
  const bytes = await deps.logoSource.logoBytes(template.logoDocumentId);
  return bytes ? safeLogo(bytes) : null;
}

async function build(
  deps: RenderDeps,
  sections: readonly LetterSection[],
  template: TemplateContent,
  facts: LetterFacts,
): Promise<LetterModel> {
  return resolveLetter(sections, template, facts, await logoOf(deps, template));
}

/**
 * The letter as it would be sent: the letterhead pinned at send (else the published one), dated the day it was sent
 * (else today).
 */
async function modelOf(deps: RenderDeps, brief: StoredBrief): Promise<LetterModel> {
  const template = brief.template;
  const c = brief.context;
  const facts: LetterFacts = {
    zorgverlenerNaam: c?.zorgverlenerNaam ?? null,
    registerNummerMasked: mask(c?.registerNummer ?? null),
    beroep: c?.beroep ?? brief.beroep,
    referentie: c?.referentie ?? brief.referentie,
    besluitDatum: c?.decidedAt ? amsterdamDate(c.decidedAt) : null,
    toelichting: c?.toelichting ?? null,
    letterDate: (brief.sentAt && amsterdamDate(brief.sentAt)) || todayInAmsterdam(deps.clock),
  };
  return build(deps, visibleSections(brief), template.template, facts);
}

export async function letterHtml(deps: RenderDeps, address: BriefAddress): Promise<string> {
  return renderLetterHtml(await modelOf(deps, await requireBrief(deps, address)));
}

export async function letterPdf(deps: RenderDeps, address: BriefAddress): Promise<Buffer> {
  return deps.pdf.render(letterPdfJob(await modelOf(deps, await requireBrief(deps, address))));
}

/** A sample grant letter for an arts on a sub-organisation's current draft letterhead (ADR 0010). */
export async function testLetterPdf(deps: RenderDeps, subOrgId: string): Promise<Buffer> {
  const template = await requireTemplate(deps.db, subOrgId);
  const today = todayInAmsterdam(deps.clock);
  let n = 0;
  const sections = composeSections(deps.passages, 'arts', 'toekennen', () => `voorbeeld-${++n}`);
  const facts: LetterFacts = {
    zorgverlenerNaam: 'J. Voorbeeld',
    registerNummerMasked: mask('19000000789'),
    beroep: 'arts',
    referentie: 'AV-0000-000000',
    besluitDatum: today,
    toelichting: null,
    letterDate: today,
  };
  return deps.pdf.render(letterPdfJob(await build(deps, sections, template.draft, facts)));
}
