import { todayInAmsterdam } from '@register/service-kit';
import { visibleSections } from '../briefs/brief-view';
import type { BriefAddress, StoredBrief } from '../briefs/briefs.repository';
import { requireBrief } from '../briefs/find-brief';
import type { Context } from '../context';
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

async function logoOf(ctx: Context, template: TemplateContent) {
  if (!template.logoDocumentId) return null;
  const bytes = await ctx.logoSource.logoBytes(template.logoDocumentId);
  return bytes ? safeLogo(bytes) : null;
}

async function build(
  ctx: Context,
  sections: readonly LetterSection[],
  template: TemplateContent,
  facts: LetterFacts,
): Promise<LetterModel> {
  return resolveLetter(sections, template, facts, await logoOf(ctx, template));
}

/**
 * The letter as it would be sent: the letterhead pinned at send (else the published one), dated the day it was sent
 * (else today).
 */
async function modelOf(ctx: Context, brief: StoredBrief): Promise<LetterModel> {
  const template = brief.template;
  const c = brief.context;
  const facts: LetterFacts = {
    zorgverlenerNaam: c?.zorgverlenerNaam ?? null,
    registerNummerMasked: mask(c?.registerNummer ?? null),
    beroep: c?.beroep ?? brief.beroep,
    referentie: c?.referentie ?? brief.referentie,
    besluitDatum: c?.decidedAt ? amsterdamDate(c.decidedAt) : null,
    toelichting: c?.toelichting ?? null,
    letterDate: (brief.sentAt && amsterdamDate(brief.sentAt)) || todayInAmsterdam(ctx.clock),
  };
  return build(ctx, visibleSections(brief), template.template, facts);
}

export async function letterHtml(ctx: Context, address: BriefAddress): Promise<string> {
  return renderLetterHtml(await modelOf(ctx, await requireBrief(ctx, address)));
}

export async function letterPdf(ctx: Context, address: BriefAddress): Promise<Buffer> {
  return ctx.pdf.render(letterPdfJob(await modelOf(ctx, await requireBrief(ctx, address))));
}

/** A sample grant letter for an arts on a sub-organisation's current draft letterhead (ADR 0010). */
export async function testLetterPdf(ctx: Context, subOrgId: string): Promise<Buffer> {
  const template = await requireTemplate(ctx, subOrgId);
  const today = todayInAmsterdam(ctx.clock);
  let n = 0;
  const sections = composeSections(ctx.passages, 'arts', 'toekennen', () => `voorbeeld-${++n}`);
  const facts: LetterFacts = {
    zorgverlenerNaam: 'J. Voorbeeld',
    registerNummerMasked: mask('19000000789'),
    beroep: 'arts',
    referentie: 'AV-0000-000000',
    besluitDatum: today,
    toelichting: null,
    letterDate: today,
  };
  return ctx.pdf.render(letterPdfJob(await build(ctx, sections, template.draft, facts)));
}
