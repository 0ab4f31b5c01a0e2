import type { OrgTemplate, TemplateContent } from './templates.schemas';

/** A stored template as the API shows it: every field present, null when absent. */
export function toOrgTemplate(subOrgId: string, content: TemplateContent, version: number): OrgTemplate {
  return {
    subOrgId,
    orgName: content.orgName ?? null,
    returnAddress: content.returnAddress ?? null,
    logoDocumentId: content.logoDocumentId ?? null,
    footerContact: content.footerContact ?? null,
    footerLegal: content.footerLegal ?? null,
    signatureName: content.signatureName ?? null,
    signatureRole: content.signatureRole ?? null,
    signatureClosing: content.signatureClosing ?? null,
    margins: { ...content.margins },
    version,
  };
}

/** The content a version stores, from an OrgTemplate-shaped value. */
type TemplateLike = { [K in Exclude<keyof TemplateContent, 'margins'>]?: string | null } & {
  margins: TemplateContent['margins'];
};

export function toContent(t: TemplateLike): TemplateContent {
  return {
    orgName: t.orgName ?? null,
    returnAddress: t.returnAddress ?? null,
    logoDocumentId: t.logoDocumentId ?? null,
    footerContact: t.footerContact ?? null,
    footerLegal: t.footerLegal ?? null,
    signatureName: t.signatureName ?? null,
    signatureRole: t.signatureRole ?? null,
    signatureClosing: t.signatureClosing ?? null,
    margins: {
      topMm: t.margins.topMm,
      rightMm: t.margins.rightMm,
      bottomMm: t.margins.bottomMm,
      leftMm: t.margins.leftMm,
    },
  };
}
