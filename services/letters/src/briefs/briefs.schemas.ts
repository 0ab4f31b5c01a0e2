import { z } from 'zod';
import { withBracketPaths } from '../content/bracket-paths';
import { LetterSection, LetterSectionInput, PlaceholderDef } from '../content/content.schemas';
import { LibraryPassage } from '../passages/passages.schemas';
import { cleanString } from '../shared/text';
import { OrgTemplate } from '../templates/templates.schemas';
import { BRIEF_STATUSES } from './brief-rules';

const at = z.string().nullable().meta({ format: 'date-time' });

export const BriefStatus = z
  .strictObject({
    tag: z.enum(BRIEF_STATUSES).nullable(),
    submittedBy: z.string().nullable(),
    submittedAt: at,
    approvedBy: z.string().nullable(),
    approvedAt: at,
    rejectedBy: z.string().nullable(),
    rejectedAt: at,
    comments: z.string().nullable(),
    sentAt: at,
  })
  .meta({ id: 'BriefStatus' });

export const Brief = z
  .strictObject({
    briefId: z.string().nullable(),
    beroep: z.string().nullable(),
    templateId: z.string().nullable().meta({ description: 'The sub-organisation whose letterhead the letter uses.' }),
    placeholders: z.array(PlaceholderDef).nullable(),
    sections: z.array(LetterSection).nullable(),
    status: BriefStatus,
    drafterId: z.string().nullable(),
  })
  .meta({ id: 'Brief' });

export const BriefDecisions = z
  .strictObject({
    canEdit: z.boolean(),
    canApprove: z.boolean(),
    canReject: z.boolean(),
    canSend: z.boolean(),
    canRevealRegisterNummer: z.boolean(),
  })
  .meta({ id: 'BriefDecisions' });

export const CaseContext = z
  .strictObject({
    zorgverlenerNaam: z.string().nullable(),
    registerNummer: z
      .string()
      .nullable()
      .meta({ description: 'Always masked (`******001`); only the audited reveal route gives the number.' }),
    beroep: z.string().nullable(),
    aanvraagReferentie: z.string().nullable(),
  })
  .meta({ id: 'CaseContext' });

export const BriefView = z
  .strictObject({
    brief: Brief,
    availablePassages: z.array(LibraryPassage).nullable(),
    decisions: BriefDecisions,
    orgTemplate: OrgTemplate,
    caseContext: CaseContext,
  })
  .meta({ id: 'BriefView' });
export type BriefView = z.infer<typeof BriefView>;

export const SaveBriefRequest = withBracketPaths(
  z.strictObject({ sections: z.array(LetterSectionInput).max(12).nullish() }).meta({ id: 'SaveBriefRequest' }),
);
export type SaveBriefRequest = z.infer<typeof SaveBriefRequest>;

export const RejectBriefRequest = withBracketPaths(
  z.strictObject({ comments: cleanString(2000).nullish() }).meta({ id: 'RejectBriefRequest' }),
);

export const BriefQuery = z.object({
  referentie: cleanString(64)
    .optional()
    .meta({ description: "A case's brief; without it, the shared working brief.", example: 'AV-2026-000042' }),
});
