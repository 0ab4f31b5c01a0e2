import type { Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { createSharedBrief, type CreateBriefDeps } from '../case-briefs/create-brief';
import { briefView, callerOf } from './brief-view';
import type { BriefView } from './briefs.schemas';
import { findBrief, findBriefId, type BriefAddress, type StoredBrief } from './briefs.repository';

export interface BriefDeps extends CreateBriefDeps {
  /** The practitioner whose demo case the shared working brief is about (decisions §10: `900000001`). */
  sharedSubject: string;
  /** Briefs found once (by referentie, '' for the shared one): a brief is never deleted, so a write need not ask again. */
  knownBriefs: Set<string>;
}

/** The shared working brief is written on first use from the demo case's context, which the applications service gives once. */
async function orCreateShared<T>(deps: BriefDeps, address: BriefAddress, find: () => Promise<T | undefined>): Promise<T> {
  let found = await find();
  if (found === undefined && address.referentie === null) {
    await createSharedBrief(deps, deps.sharedSubject);
    found = await find();
  }
  if (found === undefined) throw new NotFoundError('brief');
  return found;
}

/** The brief a route addresses, read in full (an unknown referentie: a bare 404). */
export function requireBrief(deps: BriefDeps, address: BriefAddress): Promise<StoredBrief> {
  return orCreateShared(deps, address, () => findBrief(deps.db, address));
}

/** Only that the brief exists (the 404 a write answers before it looks at the body); the write reads it under lock. */
export async function requireBriefExists(deps: BriefDeps, address: BriefAddress): Promise<void> {
  const key = address.referentie ?? '';
  if (deps.knownBriefs.has(key)) return;
  await orCreateShared(deps, address, () => findBriefId(deps.db, address));
  deps.knownBriefs.add(key);
}

export function viewOf(deps: BriefDeps, brief: StoredBrief, identity: Identity | null): BriefView {
  return briefView(brief, deps.passages.availableFor(brief.beroep), callerOf(identity));
}
