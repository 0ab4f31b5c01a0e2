import type { Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { createSharedBrief } from '../case-briefs/create-brief';
import type { Context } from '../context';
import { findVersion } from '../templates/templates.repository';
import { concerns, recordProcessingIn, type CachedBody } from '@register/service-kit';
import type { LoadedBrief } from './brief-ports';
import { briefView, callerOf } from './brief-view';
import {
  findBriefId,
  findBriefRevision,
  findBriefRow,
  updateBriefState,
  type BriefAddress,
  type StoredBrief,
} from './briefs.repository';

export type { LoadedBrief } from './brief-ports';

export const keyOf = (address: BriefAddress) => address.referentie ?? '';

/**
 * The addressed brief as it is in PostgreSQL now. With a kept copy, first only its revision and letterhead
 * version are asked (two small columns): a brief changes only with its revision, its context never, and a
 * letterhead version never once published, so equal ones mean the kept copy is the brief. Otherwise one read,
 * whose content comes from the cache when only the letterhead moved.
 */
export async function readBrief(ctx: Context, address: BriefAddress): Promise<LoadedBrief | undefined> {
  const key = keyOf(address);
  // Taken before the read: a write finishing meanwhile may replace the entry, not this revision's content.
  const known = ctx.keptBriefs.get(key);
  if (known) {
    const current = await findBriefRevision(ctx.db, address);
    if (!current) return undefined;
    if (current.revision === known.revision && current.letterheadVersion === known.template.version) return known;
  }
  const row = await findBriefRow(ctx.db, address, known?.revision ?? null);
  if (!row) return undefined;
  const { content, ...rest } = row;
  const brief: LoadedBrief = content
    ? {
        ...rest,
        ...content,
        json: {
          sections: JSON.stringify(content.sections),
          frozenSections: content.frozenSections && JSON.stringify(content.frozenSections),
        },
      }
    : { ...rest, sections: known!.sections, frozenSections: known!.frozenSections, json: known!.json };
  ctx.keptBriefs.remember(key, brief);
  return brief;
}

/**
 * Writes `next` if the brief is still at the revision `brief` was read at; the written brief with the
 * letterhead it uses now, or undefined when another write (another replica) came first.
 */
export async function writeBrief(
  ctx: Context,
  address: BriefAddress,
  brief: LoadedBrief,
  next: StoredBrief,
  now: Date,
): Promise<LoadedBrief | undefined> {
  const jsonOf = (
    value: StoredBrief['sections'] | null,
    was: StoredBrief['sections'] | null,
    wasJson: string | null,
  ) => (value === null ? null : value === was ? wasJson : JSON.stringify(value));
  const json = {
    sections: jsonOf(next.sections, brief.sections, brief.json.sections)!,
    frozenSections: jsonOf(next.frozenSections, brief.frozenSections, brief.json.frozenSections),
  };
  // The row holds `brief`'s content while its revision is `brief.revision` (the compare-and-set checks that), so
  // content that is the same text is left as stored: not sent, parsed or written again.
  const changed = {
    sections: json.sections !== brief.json.sections,
    frozenSections: json.frozenSections !== brief.json.frozenSections,
  };
  // The letter's processing record commits with the write or not at all (ADR 0182).
  const written = await ctx.db.transaction().execute(async (trx) => {
    const row = await updateBriefState(trx, brief.briefId, brief.revision, next, json, now, changed);
    if (row) await recordProcessingIn(trx, subjectOf(ctx, brief));
    return row;
  });
  if (!written) return undefined;
  let template = next.template;
  if (written.letterheadVersion !== template.version) {
    // A version is never changed once published: only a new number needs reading.
    const version = await findVersion(ctx.db, next.templateId, written.letterheadVersion);
    if (version) template = { version: version.version, template: version.template };
  }
  const stored: LoadedBrief = { ...next, template, revision: written.revision, json };
  ctx.keptBriefs.remember(keyOf(address), stored);
  return stored;
}

/**
 * The shared working brief is written on first use from the demo case's context, which the applications service gives
 * once.
 */
async function orCreateShared<T>(ctx: Context, address: BriefAddress, find: () => Promise<T | undefined>): Promise<T> {
  let found = await find();
  if (found === undefined && address.referentie === null) {
    await createSharedBrief(ctx, ctx.sharedSubject);
    found = await find();
  }
  if (found === undefined) throw new NotFoundError('brief');
  return found;
}

/** The practitioner a letter is about: its case's owner, or the shared working brief's demo practitioner. */
function subjectOf(ctx: Context, brief: LoadedBrief): string | null {
  return brief.context?.subject ?? (brief.isShared ? ctx.sharedSubject : null);
}

/** The brief a route addresses, read in full (an unknown referentie: a bare 404); its reader processes its data. */
export async function requireBrief(ctx: Context, address: BriefAddress): Promise<LoadedBrief> {
  const brief = await orCreateShared(ctx, address, () => readBrief(ctx, address));
  concerns(subjectOf(ctx, brief));
  return brief;
}

/**
 * Only that the brief exists (the 404 a write answers before it looks at the body); the write reads it itself.
 * A kept copy proves it: a brief is never deleted.
 */
export async function requireBriefExists(ctx: Context, address: BriefAddress): Promise<void> {
  if (ctx.keptBriefs.get(keyOf(address))) return;
  await orCreateShared(ctx, address, () => findBriefId(ctx.db, address));
}

/** The caller's BriefView as a body to send; its large parts go along as the JSON text they were kept as. */
export function viewBodyOf(ctx: Context, brief: LoadedBrief, identity: Identity | null): CachedBody {
  const view = briefView(brief, ctx.passages.availableFor(brief.beroep), callerOf(identity));
  return ctx.viewBodies.bodyOf(view, {
    sections: (view.brief.sections === brief.frozenSections ? brief.json.frozenSections : brief.json.sections)!,
    availablePassages: ctx.passages.availableJsonFor(brief.beroep),
  });
}
