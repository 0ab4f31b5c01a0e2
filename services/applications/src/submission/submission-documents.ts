import type { FieldError } from '@register/problem';

/** A category as the documents service describes it for the request's own answers (the one source). */
export interface CategoryRule {
  categoryId: string;
  required: boolean;
  allowPostDelivery: boolean;
}

/** A document the submit would link, as the link check receives it. */
export interface LinkCandidate {
  documentId: string;
  categoryId: string;
}

/**
 * What submit asks the documents service (ADR 0005 rule 2). Whether a document may be linked (the
 * caller's own upload, that category, not linked elsewhere) is the documents service's rule alone: submit
 * trusts its answer. `field` of a refusal is `documents[i].documentId`, `i` indexing `documents` as sent.
 */
export interface SubmitDocumentsPort {
  categories(wizardId: string, answers: { diplomaHerkomst?: string | null }): Promise<CategoryRule[]>;
  checkLink(request: { applicationId: string; owner: string; documents: LinkCandidate[] }): Promise<FieldError[]>;
}
