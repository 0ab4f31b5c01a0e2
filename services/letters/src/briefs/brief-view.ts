import { capabilitiesOf, type Identity } from '@register/authz';
import type { Capability } from '@register/contracts';
import { PLACEHOLDERS } from '../content/placeholders';
import type { LibraryPassage } from '../passages/passages.schemas';
import { mask, timestamp } from '../shared/text';
import { toOrgTemplate } from '../templates/template-view';
import { evaluateBrief, showsFrozenCopy } from './brief-rules';
import type { BriefView } from './briefs.schemas';
import type { StoredBrief } from './briefs.repository';

export interface Caller {
  /** The practitioner's subject, or the case handler's id: who drafts, approves or rejects. */
  id: string | null;
  capabilities: Capability[];
}

export function callerOf(identity: Identity | null): Caller {
  return {
    id: identity?.practitioner?.subject ?? identity?.caseHandler?.medewerker ?? null,
    capabilities: capabilitiesOf(identity),
  };
}

/** The sections a letter shows and renders: the frozen copy once submitted, the working copy while drafted. */
export function visibleSections(brief: StoredBrief) {
  return showsFrozenCopy(brief.status) && brief.frozenSections ? brief.frozenSections : brief.sections;
}

/** The BriefView of one caller: `decisions` from the state machine, the register number masked (ADR 0003). */
export function briefView(brief: StoredBrief, passages: LibraryPassage[], caller: Caller): BriefView {
  const { decisions } = evaluateBrief(brief.status, caller.capabilities, caller.id, brief.drafterId);
  const context = brief.context;
  return {
    brief: {
      briefId: brief.briefId,
      beroep: brief.beroep,
      templateId: brief.templateId,
      placeholders: [...PLACEHOLDERS],
      sections: visibleSections(brief),
      status: {
        tag: brief.status,
        submittedBy: brief.submittedBy,
        submittedAt: timestamp(brief.submittedAt),
        approvedBy: brief.approvedBy,
        approvedAt: timestamp(brief.approvedAt),
        rejectedBy: brief.rejectedBy,
        rejectedAt: timestamp(brief.rejectedAt),
        comments: brief.comments,
        sentAt: timestamp(brief.sentAt),
      },
      drafterId: brief.drafterId,
    },
    availablePassages: passages,
    decisions,
    orgTemplate: toOrgTemplate(brief.templateId, brief.template.template, brief.template.version),
    caseContext: {
      zorgverlenerNaam: context?.zorgverlenerNaam ?? null,
      registerNummer: mask(context?.registerNummer ?? null),
      beroep: context?.beroep ?? brief.beroep,
      aanvraagReferentie: context?.referentie ?? brief.referentie,
    },
  };
}
