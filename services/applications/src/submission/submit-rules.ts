import type { FieldError, ProblemSlug } from '@register/problem';
import type { ApplicationType } from '../cases/application.schemas';
import type { SubmitRequest } from './submission.schemas';
import type { CategoryRule, LinkCandidate } from './submission-documents';

/** What the rules ask the documents service, once rule 1 holds: the wizard's categories and the link check. */
export interface FactsQuery {
  wizardId: ApplicationType;
  diplomaHerkomst: string | null;
  /** The `digitaal` entries, in body order (a refusal's `documents[i]` indexes this list). */
  candidates: LinkCandidate[];
}

export interface SubmitFacts {
  categories: CategoryRule[];
  /** The documents service's refusals of `candidates` (empty: every one may be linked). */
  rejected: FieldError[];
}

export type SubmitOutcome =
  | { ok: true; uren: number; digitaal: LinkCandidate[] }
  | { ok: false; slug: ProblemSlug; detail: string; errors: FieldError[] };

const isCount = (v: number | null | undefined): v is number => Number.isInteger(v) && (v as number) >= 1;
const fail = (slug: ProblemSlug, detail: string, errors: FieldError[]): SubmitOutcome => ({
  ok: false,
  slug,
  detail,
  errors,
});

/**
 * The submit rules of ADR 0005, in order; the first failing rule decides the answer. Rule 1 runs before
 * anything is fetched; `facts` is asked (once) only when it holds.
 */
export async function evaluateSubmit(
  type: ApplicationType,
  req: SubmitRequest,
  scholingThreshold: number,
  facts: (query: FactsQuery) => Promise<SubmitFacts>,
): Promise<SubmitOutcome> {
  const answerErrors = checkAnswers(type, req);
  if (answerErrors.length > 0) return fail('validation', 'The submission is incomplete.', answerErrors);

  const entries = digitalEntries(req);
  const known = await facts({
    wizardId: type,
    diplomaHerkomst: type === 'intake' ? (req.diplomaHerkomst ?? null) : null,
    candidates: entries.map((e) => e.candidate),
  });
  const documents = checkDocuments(req, known, entries);
  if (!documents.ok)
    return fail('validation', 'The documents do not satisfy the required categories.', documents.errors);

  const uren = req.uren as number;
  if (type === 'intake' && uren < scholingThreshold) {
    const scholingErrors = checkScholing(req);
    if (scholingErrors.length > 0)
      return fail(
        'scholing-incompleet',
        'Below the scholing threshold the scholing answer is incomplete.',
        scholingErrors,
      );
  }
  return { ok: true, uren, digitaal: documents.digitaal };
}

/** Rule 1: the answers every later rule needs. */
function checkAnswers(type: ApplicationType, req: SubmitRequest): FieldError[] {
  const errors: FieldError[] = [];
  if (type === 'intake' && req.diplomaHerkomst !== 'digitaal' && req.diplomaHerkomst !== 'handmatig') {
    errors.push({
      field: 'diplomaHerkomst',
      code: 'invalid-value',
      detail: 'diplomaHerkomst must be digitaal or handmatig.',
    });
  }
  if (!isCount(req.uren))
    errors.push({ field: 'uren', code: 'invalid-value', detail: 'uren must be an integer of at least 1.' });
  return errors;
}

/** Rule S1; only reached for an intake below the threshold. */
function checkScholing(req: SubmitRequest): FieldError[] {
  const followed = req.aanvullendeScholing;
  const punten = req.scholingPunten;
  if (typeof followed !== 'boolean') {
    return [
      {
        field: 'aanvullendeScholing',
        code: 'required',
        detail: 'Below the scholing threshold aanvullendeScholing must be answered (false is allowed).',
      },
    ];
  }
  const puntenGiven = punten !== undefined && punten !== null;
  if (followed && !isCount(punten))
    return [
      {
        field: 'scholingPunten',
        code: 'invalid-value',
        detail: 'A followed scholing needs scholingPunten, an integer of at least 1.',
      },
    ];
  if (!followed && puntenGiven)
    return [
      { field: 'scholingPunten', code: 'not-allowed', detail: 'scholingPunten belongs only to a followed scholing.' },
    ];
  return [];
}

interface DigitalEntry {
  /** The entry's index in the body's `documents`. */
  index: number;
  candidate: LinkCandidate;
}

function digitalEntries(req: SubmitRequest): DigitalEntry[] {
  return (
    req.documents?.flatMap((d, index) =>
      d.channel === 'digitaal' && d.documentId && d.categoryId
        ? [{ index, candidate: { documentId: d.documentId, categoryId: d.categoryId } }]
        : [],
    ) ?? []
  );
}

/** The documents service's refusals, renamed from its `documents[i]` (i in the candidates) to the body's index. */
function refusalsByIndex(
  rejected: FieldError[],
  entries: DigitalEntry[],
): { byIndex: Map<number, FieldError>; unplaced: FieldError[] } {
  const byIndex = new Map<number, FieldError>();
  const unplaced: FieldError[] = [];
  for (const refusal of rejected) {
    const m = /^documents\[(\d+)\](.*)$/.exec(refusal.field);
    const entry = m ? entries[Number(m[1])] : undefined;
    if (!m || !entry) unplaced.push({ ...refusal, field: 'documents' });
    else if (!byIndex.has(entry.index))
      byIndex.set(entry.index, { ...refusal, field: `documents[${entry.index}]${m[2]}` });
  }
  return { byIndex, unplaced };
}

type DocumentsCheck = { ok: true; digitaal: LinkCandidate[] } | { ok: false; errors: FieldError[] };

/** Rule 2: every entry is a valid reference, and every required category has one. */
function checkDocuments(req: SubmitRequest, facts: SubmitFacts, entries: DigitalEntry[]): DocumentsCheck {
  const categories = new Map(facts.categories.map((c) => [c.categoryId, c]));
  const { byIndex: refused, unplaced } = refusalsByIndex(facts.rejected, entries);
  const errors: FieldError[] = [];
  const covered = new Set<string>();
  const digitaal: LinkCandidate[] = [];

  (req.documents ?? []).forEach((ref, i) => {
    const at = `documents[${i}]`;
    const category = ref.categoryId ? categories.get(ref.categoryId) : undefined;
    if (!category)
      return errors.push({
        field: `${at}.categoryId`,
        code: 'unknown-category',
        detail: 'Not a category of this wizard.',
      });
    if (ref.channel === 'post') {
      if (!category.allowPostDelivery)
        return errors.push({
          field: `${at}.channel`,
          code: 'post-not-allowed',
          detail: 'This category cannot be delivered by post.',
        });
      covered.add(category.categoryId);
      return;
    }
    if (ref.channel !== 'digitaal')
      return errors.push({
        field: `${at}.channel`,
        code: 'invalid-value',
        detail: 'channel must be digitaal or post.',
      });
    const refusal = refused.get(i);
    if (!ref.documentId || refusal)
      return errors.push(
        refusal ?? {
          field: `${at}.documentId`,
          code: 'invalid-document',
          detail: 'Not an upload of the caller in this category.',
        },
      );
    covered.add(category.categoryId);
    digitaal.push({ documentId: ref.documentId, categoryId: category.categoryId });
  });

  errors.push(...unplaced);
  for (const c of facts.categories) {
    if (c.required && !covered.has(c.categoryId))
      errors.push({ field: 'documents', code: 'missing-category', detail: `Category ${c.categoryId} is required.` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, digitaal };
}
