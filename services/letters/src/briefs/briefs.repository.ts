import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { LetterSection } from '../content/content.schemas';
import type { LettersDb } from '../database';
import type { TemplateContent } from '../templates/templates.schemas';
import type { BriefStatusTag } from './brief-rules';

type Db = Kysely<LettersDb> | Transaction<LettersDb>;

/** Letters' own copy of a case's context; `registerNummer` unmasked (masked in every view). */
export interface StoredCaseContext {
  applicationId: string | null;
  referentie: string | null;
  type: string | null;
  besluit: string | null;
  toelichting: string | null;
  decidedAt: string | null;
  beroep: string | null;
  zorgverlenerNaam: string | null;
  registerNummer: string | null;
  /** The practitioner the letter is about (null in a copy made before it was kept). */
  subject: string | null;
}

export interface BriefState {
  status: BriefStatusTag;
  submittedBy: string | null;
  submittedAt: Date | null;
  approvedBy: string | null;
  approvedAt: Date | null;
  rejectedBy: string | null;
  rejectedAt: Date | null;
  comments: string | null;
  sentAt: Date | null;
  drafterId: string | null;
  templateVersion: number | null;
  sections: LetterSection[];
  frozenSections: LetterSection[] | null;
}

export interface StoredBrief extends BriefState {
  briefId: string;
  /** Raised by every write; a write is a compare-and-set on it. */
  revision: string;
  isShared: boolean;
  applicationId: string | null;
  referentie: string | null;
  beroep: string | null;
  besluit: string | null;
  templateId: string;
  context: StoredCaseContext | null;
  /** The letterhead it uses: the version pinned at send, else the one published when it was read. */
  template: { version: number; template: TemplateContent };
}

/** Which brief a route addresses: a case's (`?referentie=`) or the shared working brief. */
export interface BriefAddress {
  referentie: string | null;
}

const BRIEF_COLUMNS = [
  'b.brief_id',
  'b.revision',
  'b.is_shared',
  'b.application_id',
  'b.referentie',
  'b.beroep',
  'b.besluit',
  'b.template_id',
  'b.status_tag',
  'b.submitted_by',
  'b.submitted_at',
  'b.approved_by',
  'b.approved_at',
  'b.rejected_by',
  'b.rejected_at',
  'b.comments',
  'b.sent_at',
  'b.drafter_id',
  'b.template_version',
  'c.brief_id as context_brief_id',
  'c.application_id as c_application_id',
  'c.referentie as c_referentie',
  'c.type as c_type',
  'c.besluit as c_besluit',
  'c.toelichting as c_toelichting',
  'c.decided_at as c_decided_at',
  'c.beroep as c_beroep',
  'c.zorgverlener_naam as c_naam',
  'c.register_nummer as c_register_nummer',
  'c.subject as c_subject',
  'v.version as letterhead_version',
  'v.template as letterhead',
] as const;

const where = (address: BriefAddress) =>
  address.referentie === null ? sql<boolean>`b.is_shared` : sql<boolean>`b.referentie = ${address.referentie}`;

/** Whether the addressed brief exists (its id), without reading it. */
export async function findBriefId(db: Db, address: BriefAddress): Promise<string | undefined> {
  return (await db.selectFrom('brief as b').select('b.brief_id').where(where(address)).executeTakeFirst())?.brief_id;
}

/** A brief's content, which alone is large: the working copy and the copy frozen at submit. */
export interface BriefContent {
  sections: LetterSection[];
  frozenSections: LetterSection[] | null;
}

/** A brief as read; `content` is null when the reader held that revision's content already (not read again). */
export interface BriefRow extends Omit<StoredBrief, keyof BriefContent> {
  content: BriefContent | null;
}

function briefRowQuery(db: Db, address: BriefAddress, knownRevision: string | null) {
  const known = sql<boolean>`b.revision is not distinct from ${knownRevision}::bigint`;
  return db
    .selectFrom('brief as b')
    .leftJoin('case_context as c', 'c.brief_id', 'b.brief_id')
    .innerJoin('org_template as t', 't.sub_org_id', 'b.template_id')
    .innerJoin('org_template_version as v', (j) =>
      j
        .onRef('v.sub_org_id', '=', 'b.template_id')
        .on(sql<boolean>`v.version = coalesce(b.template_version, t.published_version)`),
    )
    .select(BRIEF_COLUMNS)
    .select([
      known.as('content_known'),
      sql<LetterSection[] | null>`case when ${known} then null else b.sections end`.as('sections'),
      sql<LetterSection[] | null>`case when ${known} then null else b.frozen_sections end`.as('frozen_sections'),
    ])
    .where(where(address));
}
type BriefRowRecord = Awaited<ReturnType<ReturnType<typeof briefRowQuery>['executeTakeFirstOrThrow']>>;

function revisionQuery(db: Db, address: BriefAddress) {
  return db
    .selectFrom('brief as b')
    .innerJoin('org_template as t', 't.sub_org_id', 'b.template_id')
    .select(['b.revision', sql<number>`coalesce(b.template_version, t.published_version)`.as('letterhead_version')])
    .where(where(address));
}
type RevisionRecord = Awaited<ReturnType<ReturnType<typeof revisionQuery>['executeTakeFirstOrThrow']>>;

// The query is built once per kind of address (the shared brief, a case's) with stand-ins for its two values,
// which each read swaps for its own: building it anew took a tenth of a read's time.
const REVISION = '\u0000revision';
const REFERENTIE = '\u0000referentie';
const compiled = new Map<boolean, CompiledQuery<BriefRowRecord>>();
const compiledRevision = new Map<boolean, CompiledQuery<RevisionRecord>>();

/** The addressed brief's revision and the letterhead version it uses now (its pinned one, else the published one). */
export async function findBriefRevision(
  db: Db,
  address: BriefAddress,
): Promise<{ revision: string; letterheadVersion: number } | undefined> {
  const shared = address.referentie === null;
  let query = compiledRevision.get(shared);
  if (!query) {
    query = revisionQuery(db, { referentie: shared ? null : REFERENTIE }).compile();
    compiledRevision.set(shared, query);
  }
  const parameters = query.parameters.map((p) => (p === REFERENTIE ? address.referentie : p));
  const r = (await db.executeQuery<RevisionRecord>({ ...query, parameters })).rows[0];
  return r && { revision: r.revision, letterheadVersion: r.letterhead_version };
}

/**
 * One brief with its case context and letterhead, in one read. The content comes along unless its revision is
 * `knownRevision`. A sent brief's `template_version` is its pinned one; unsent ones have none.
 */
export async function findBriefRow(
  db: Db,
  address: BriefAddress,
  knownRevision: string | null,
): Promise<BriefRow | undefined> {
  const shared = address.referentie === null;
  let query = compiled.get(shared);
  if (!query) {
    query = briefRowQuery(db, { referentie: shared ? null : REFERENTIE }, REVISION).compile();
    compiled.set(shared, query);
  }
  const parameters = query.parameters.map((p) =>
    p === REVISION ? knownRevision : p === REFERENTIE ? address.referentie : p,
  );
  const r = (await db.executeQuery<BriefRowRecord>({ ...query, parameters })).rows[0];
  if (!r) return undefined;
  return {
    briefId: r.brief_id,
    revision: r.revision,
    isShared: r.is_shared,
    applicationId: r.application_id,
    referentie: r.referentie,
    beroep: r.beroep,
    besluit: r.besluit,
    templateId: r.template_id,
    content: r.content_known ? null : { sections: r.sections!, frozenSections: r.frozen_sections },
    status: r.status_tag as BriefStatusTag,
    submittedBy: r.submitted_by,
    submittedAt: r.submitted_at,
    approvedBy: r.approved_by,
    approvedAt: r.approved_at,
    rejectedBy: r.rejected_by,
    rejectedAt: r.rejected_at,
    comments: r.comments,
    sentAt: r.sent_at,
    drafterId: r.drafter_id,
    templateVersion: r.template_version,
    template: { version: r.letterhead_version, template: r.letterhead },
    context: r.context_brief_id
      ? {
          applicationId: r.c_application_id,
          referentie: r.c_referentie,
          type: r.c_type,
          besluit: r.c_besluit,
          toelichting: r.c_toelichting,
          decidedAt: r.c_decided_at,
          beroep: r.c_beroep,
          zorgverlenerNaam: r.c_naam,
          registerNummer: r.c_register_nummer,
          subject: r.c_subject,
        }
      : null,
  };
}

/** One brief in full (content included). */
export async function findBrief(db: Db, address: BriefAddress): Promise<StoredBrief | undefined> {
  const row = await findBriefRow(db, address, null);
  if (!row) return undefined;
  const { content, ...rest } = row;
  return { ...rest, ...content! };
}

export async function briefExistsForApplication(db: Db, applicationId: string): Promise<boolean> {
  return (
    (await db.selectFrom('brief').select('brief_id').where('application_id', '=', applicationId).executeTakeFirst()) !==
    undefined
  );
}

/** The content as JSON text, serialised once for the row and the view. */
export interface ContentJson {
  sections: string;
  frozenSections: string | null;
}

/**
 * Writes a brief's state if it is still at `revision` (a compare-and-set: of two writes from the same
 * revision, one wins); the content only where `changed` says so. Returns the new revision and the letterhead version
 * the brief now uses (its pinned one, else the one published now), or undefined when another write came first.
 */
export async function updateBriefState(
  db: Db,
  briefId: string,
  revision: string,
  state: BriefState,
  json: ContentJson,
  now: Date,
  changed: { sections: boolean; frozenSections: boolean } = { sections: true, frozenSections: true },
): Promise<{ revision: string; letterheadVersion: number } | undefined> {
  const row = await db
    .updateTable('brief')
    .set({
      // Content left out stays as stored (the caller knows it is that text already).
      ...(changed.sections ? { sections: json.sections } : {}),
      ...(changed.frozenSections ? { frozen_sections: json.frozenSections } : {}),
      status_tag: state.status,
      submitted_by: state.submittedBy,
      submitted_at: state.submittedAt,
      approved_by: state.approvedBy,
      approved_at: state.approvedAt,
      rejected_by: state.rejectedBy,
      rejected_at: state.rejectedAt,
      comments: state.comments,
      sent_at: state.sentAt,
      drafter_id: state.drafterId,
      template_version: state.templateVersion,
      revision: sql<string>`revision + 1`,
      updated_at: now,
    })
    .where('brief_id', '=', briefId)
    .where('revision', '=', revision)
    .returning([
      'revision',
      sql<number>`(select coalesce(brief.template_version,
        t.published_version) from org_template t where t.sub_org_id = brief.template_id)`.as('letterhead_version'),
    ])
    .executeTakeFirst();
  return row && { revision: row.revision, letterheadVersion: row.letterhead_version };
}

export interface NewBrief {
  briefId: string;
  isShared: boolean;
  applicationId: string | null;
  referentie: string | null;
  beroep: string | null;
  besluit: string | null;
  templateId: string;
  sections: LetterSection[];
  context: StoredCaseContext;
}

/**
 * Adds a brief and its context copy unless one exists already for that case (or the shared one): a repeated
 * event creates nothing. Returns whether it was added.
 */
export async function insertBrief(
  db: Kysely<LettersDb>,
  brief: NewBrief,
  alsoInTransaction: (trx: Transaction<LettersDb>) => Promise<void> = async () => {},
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('brief')
      .values({
        brief_id: brief.briefId,
        is_shared: brief.isShared,
        application_id: brief.applicationId,
        referentie: brief.referentie,
        beroep: brief.beroep,
        besluit: brief.besluit,
        template_id: brief.templateId,
        sections: JSON.stringify(brief.sections),
        frozen_sections: null,
        status_tag: 'concept',
      })
      .onConflict((oc) => oc.doNothing())
      .returning('brief_id')
      .executeTakeFirst();
    if (!inserted) return false;
    const c = brief.context;
    await trx
      .insertInto('case_context')
      .values({
        brief_id: brief.briefId,
        application_id: c.applicationId,
        referentie: c.referentie,
        type: c.type,
        besluit: c.besluit,
        toelichting: c.toelichting,
        decided_at: c.decidedAt,
        beroep: c.beroep,
        zorgverlener_naam: c.zorgverlenerNaam,
        register_nummer: c.registerNummer,
        subject: c.subject,
      })
      .execute();
    await alsoInTransaction(trx);
    return true;
  });
}
