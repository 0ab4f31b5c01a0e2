import type { FieldError, ProblemSlug } from '@register/problem';

export type ApplicationType = 'intake' | 'herregistratie';
export const APPLICATION_TYPES: readonly ApplicationType[] = ['intake', 'herregistratie'];

/** The submit body as received; fields are unknown until the rules have looked at them. */
export interface SubmitRequest {
  diplomaHerkomst?: unknown;
  uren?: unknown;
  documents?: unknown;
  aanvullendeScholing?: unknown;
  scholingPunten?: unknown;
}

/** A category as the documents service describes it for the request's own answers. */
export interface CategoryRule {
  categoryId: string;
  required: boolean;
  allowPostDelivery: boolean;
}

/** One of the caller's uploads, as the documents service's lookup returned it. */
export interface OwnedDocument {
  documentId: string;
  categoryId: string;
  linkedApplicationId: string | null;
}

export interface SubmitContext {
  applicationId: string;
  scholingThreshold: number;
  categories: CategoryRule[];
  /** Only the caller's own existing documents (the lookup filters by owner). */
  ownedDocuments: OwnedDocument[];
}

export type SubmitOutcome =
  | { ok: true; uren: number; digitaal: Array<{ documentId: string; categoryId: string }> }
  | { ok: false; slug: ProblemSlug; detail: string; errors: FieldError[] };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
const fail = (slug: ProblemSlug, detail: string, errors: FieldError[]): SubmitOutcome => ({ ok: false, slug, detail, errors });

/** Rule 1 (decisions §5): the answers every later rule needs. Runs before anything is fetched. */
export function checkAnswers(type: ApplicationType, req: SubmitRequest): FieldError[] {
  const errors: FieldError[] = [];
  if (type === 'intake' && req.diplomaHerkomst !== 'digitaal' && req.diplomaHerkomst !== 'handmatig') {
    errors.push({ field: 'diplomaHerkomst', code: 'invalid-value', detail: 'diplomaHerkomst must be digitaal or handmatig.' });
  }
  if (!isCount(req.uren)) errors.push({ field: 'uren', code: 'invalid-value', detail: 'uren must be an integer of at least 1.' });
  return errors;
}

/** The answers that decide which categories are required (the wizard's own, decisions §5 rule 2). */
export function categoryQuery(type: ApplicationType, req: SubmitRequest): { wizardId: string; diplomaHerkomst: string | null } {
  return type === 'intake' ? { wizardId: 'intake', diplomaHerkomst: String(req.diplomaHerkomst) } : { wizardId: 'herregistratie', diplomaHerkomst: null };
}

/** documentIds of the `digitaal` entries, for the documents lookup. */
export function digitalDocumentIds(req: SubmitRequest): string[] {
  if (!Array.isArray(req.documents)) return [];
  return req.documents.flatMap((d: unknown) => {
    const ref = d as { channel?: unknown; documentId?: unknown } | null;
    return ref && ref.channel === 'digitaal' && typeof ref.documentId === 'string' ? [ref.documentId] : [];
  });
}

/**
 * The submit rules of decisions §5, in order; the first failing rule decides the answer. Pure: the
 * caller fetches categories and the owner's documents and passes them in.
 */
export function evaluateSubmit(type: ApplicationType, req: SubmitRequest, ctx: SubmitContext): SubmitOutcome {
  const answerErrors = checkAnswers(type, req);
  if (answerErrors.length > 0) return fail('validation', 'The submission is incomplete.', answerErrors);

  const documents = checkDocuments(req.documents, ctx);
  if (!documents.ok) return fail('validation', 'The documents do not satisfy the required categories.', documents.errors);

  const uren = req.uren as number;
  if (type === 'intake' && uren < ctx.scholingThreshold) {
    const scholingErrors = checkScholing(req);
    if (scholingErrors.length > 0) return fail('scholing-incompleet', 'Below the scholing threshold the scholing answer is incomplete.', scholingErrors);
  }
  return { ok: true, uren, digitaal: documents.digitaal };
}

/** Rule S1; only reached for an intake below the threshold. */
function checkScholing(req: SubmitRequest): FieldError[] {
  const followed = req.aanvullendeScholing;
  const punten = req.scholingPunten;
  if (typeof followed !== 'boolean') {
    return [{ field: 'aanvullendeScholing', code: 'required', detail: 'Below the scholing threshold aanvullendeScholing must be answered (false is allowed).' }];
  }
  const puntenGiven = punten !== undefined && punten !== null;
  if (followed && !isCount(punten)) return [{ field: 'scholingPunten', code: 'invalid-value', detail: 'A followed scholing needs scholingPunten, an integer of at least 1.' }];
  if (!followed && puntenGiven) return [{ field: 'scholingPunten', code: 'not-allowed', detail: 'scholingPunten belongs only to a followed scholing.' }];
  return [];
}

type DocumentsCheck = { ok: true; digitaal: Array<{ documentId: string; categoryId: string }> } | { ok: false; errors: FieldError[] };

/** Rule 2: every entry is a valid reference, and every required category has one. */
function checkDocuments(raw: unknown, ctx: SubmitContext): DocumentsCheck {
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    return { ok: false, errors: [{ field: 'documents', code: 'invalid-type', detail: 'documents must be an array.' }] };
  }
  const entries: unknown[] = Array.isArray(raw) ? raw : [];
  const categories = new Map(ctx.categories.map((c) => [c.categoryId, c]));
  const owned = new Map(ctx.ownedDocuments.map((d) => [d.documentId, d]));
  const errors: FieldError[] = [];
  const covered = new Set<string>();
  const digitaal: Array<{ documentId: string; categoryId: string }> = [];

  entries.forEach((entry, i) => {
    const at = `documents[${i}]`;
    const ref = (entry ?? {}) as { categoryId?: unknown; channel?: unknown; documentId?: unknown };
    const category = typeof ref.categoryId === 'string' ? categories.get(ref.categoryId) : undefined;
    if (!category) return errors.push({ field: `${at}.categoryId`, code: 'unknown-category', detail: 'Not a category of this wizard.' });
    if (ref.channel === 'post') {
      if (!category.allowPostDelivery) return errors.push({ field: `${at}.channel`, code: 'post-not-allowed', detail: 'This category cannot be delivered by post.' });
      covered.add(category.categoryId);
      return;
    }
    if (ref.channel !== 'digitaal') return errors.push({ field: `${at}.channel`, code: 'invalid-value', detail: 'channel must be digitaal or post.' });
    const doc = typeof ref.documentId === 'string' ? owned.get(ref.documentId) : undefined;
    const usable = doc && doc.categoryId === category.categoryId && (doc.linkedApplicationId === null || doc.linkedApplicationId === ctx.applicationId);
    if (!doc || !usable) return errors.push({ field: `${at}.documentId`, code: 'invalid-document', detail: 'Not an upload of the caller in this category.' });
    covered.add(category.categoryId);
    digitaal.push({ documentId: doc.documentId, categoryId: doc.categoryId });
  });

  for (const c of ctx.categories) {
    if (c.required && !covered.has(c.categoryId)) errors.push({ field: 'documents', code: 'missing-category', detail: `Category ${c.categoryId} is required.` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, digitaal };
}
