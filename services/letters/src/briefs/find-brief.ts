import type { Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { createSharedBrief, type CreateBriefDeps } from '../case-briefs/create-brief';
import { findPublished, type TemplateVersionRow } from '../templates/templates.repository';
import { briefView, callerOf } from './brief-view';
import type { BriefView } from './briefs.schemas';
import { findBrief, type BriefAddress, type StoredBrief } from './briefs.repository';

export interface BriefDeps extends CreateBriefDeps {
  /** The practitioner whose demo case the shared working brief is about (decisions §10: `900000001`). */
  sharedSubject: string;
}

/**
 * The brief a route addresses (an unknown referentie: a bare 404). The shared working brief is written on
 * first use from the demo case's context, which the applications service gives once.
 */
export async function requireBrief(deps: BriefDeps, address: BriefAddress): Promise<StoredBrief> {
  let brief = await findBrief(deps.db, address);
  if (!brief && address.referentie === null) {
    await createSharedBrief(deps, deps.sharedSubject);
    brief = await findBrief(deps.db, address);
  }
  if (!brief) throw new NotFoundError('brief');
  return brief;
}

/** The letterhead a brief uses: the version pinned at send, else the published one. */
export async function templateOf(deps: Pick<BriefDeps, 'db'>, brief: StoredBrief): Promise<TemplateVersionRow> {
  const template = await findPublished(deps.db, brief.templateId, brief.status === 'verzonden' ? brief.templateVersion : null);
  if (!template) throw new Error(`org template ${brief.templateId} has no published version`);
  return template;
}

export async function viewOf(deps: BriefDeps, brief: StoredBrief, identity: Identity | null): Promise<BriefView> {
  const template = await templateOf(deps, brief);
  return briefView(brief, template, deps.passages.availableFor(brief.beroep), callerOf(identity));
}
