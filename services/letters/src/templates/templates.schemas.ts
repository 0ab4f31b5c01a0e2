import { z } from 'zod';
import { withBracketPaths } from '../content/bracket-paths';
import { cleanString } from '../shared/text';

export const Margins = z
  .strictObject({
    topMm: z.number().int(),
    rightMm: z.number().int(),
    bottomMm: z.number().int(),
    leftMm: z.number().int(),
  })
  .meta({ id: 'Margins', description: 'Page margins in millimetres.' });

export const OrgTemplate = z
  .strictObject({
    subOrgId: z.string().nullable(),
    orgName: z.string().nullable(),
    returnAddress: z.string().nullable(),
    logoDocumentId: z
      .string()
      .nullable()
      .meta({ description: 'A document uploaded in the `organisatie-logo` category (PNG or SVG).' }),
    footerContact: z.string().nullable(),
    footerLegal: z.string().nullable(),
    signatureName: z.string().nullable(),
    signatureRole: z.string().nullable(),
    signatureClosing: z.string().nullable(),
    margins: Margins,
    version: z
      .number()
      .int()
      .meta({ description: 'A published version; for the draft, the version it becomes when published.' }),
  })
  .meta({ id: 'OrgTemplate' });
export type OrgTemplate = z.infer<typeof OrgTemplate>;
/** What a version stores: the template without its identity and number. */
export type TemplateContent = Omit<OrgTemplate, 'subOrgId' | 'version'>;

export const OrgTemplateVersion = z
  .strictObject({
    version: z.number().int(),
    publishedAt: z.string().nullable().meta({ format: 'date-time' }),
    template: OrgTemplate,
  })
  .meta({ id: 'OrgTemplateVersion' });

export const OrgTemplateAdminView = z
  .strictObject({
    draft: OrgTemplate,
    publishedVersion: z.number().int(),
    history: z
      .array(OrgTemplateVersion)
      .nullable()
      .meta({ description: 'Every published version, newest first (append-only).' }),
    unsentBriefs: z.number().int().meta({ description: 'Briefs of this sub-organisation that are not `verzonden`.' }),
  })
  .meta({ id: 'OrgTemplateAdminView' });
export type OrgTemplateAdminView = z.infer<typeof OrgTemplateAdminView>;

export const SubOrgSummary = z
  .strictObject({ subOrgId: z.string().nullable(), orgName: z.string().nullable(), publishedVersion: z.number().int() })
  .meta({ id: 'SubOrgSummary' });

export const PublishOrgTemplateResponse = z
  .strictObject({ version: z.number().int(), affectedUnsentBriefs: z.number().int() })
  .meta({ id: 'PublishOrgTemplateResponse' });

const margin = z.int().min(0, 'A margin is 0 to 60 mm.').max(60, 'A margin is 0 to 60 mm.');
const text = (max: number) => cleanString(max).nullish();

/** ADR 0010: a blank `orgName` or a margin outside 0–60 mm is 400 (the logo is checked with the documents service). */
export const SaveOrgTemplateRequest = withBracketPaths(
  z
    .strictObject({
      draft: z.strictObject({
        subOrgId: text(64),
        orgName: cleanString(200).refine((v) => v.trim() !== '', 'The organisation name must not be blank.'),
        returnAddress: text(500),
        logoDocumentId: text(128),
        footerContact: text(500),
        footerLegal: text(1000),
        signatureName: text(200),
        signatureRole: text(200),
        signatureClosing: text(200),
        margins: z.strictObject({ topMm: margin, rightMm: margin, bottomMm: margin, leftMm: margin }),
        version: z
          .int()
          .min(0)
          .max(2_147_483_647)
          .nullish()
          .meta({ description: 'Ignored: the server numbers versions.' }),
      }),
    })
    .meta({ id: 'SaveOrgTemplateRequest' }),
);
export type SaveOrgTemplateRequest = z.infer<typeof SaveOrgTemplateRequest>;

export const SubOrgParams = z.object({ subOrgId: cleanString(64).meta({ example: 'register' }) });
export const RollbackParams = SubOrgParams.extend({ version: cleanString(20).meta({ example: '1' }) });
