import type { ApplicationSummary } from './application.schemas';

export interface Page<T> {
  items: T[];
  /** Opaque; null when no rows remain. */
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor: string | undefined;
}

/** A case as the listing knows it: its own id, and the referentie that resolves it to a local application. */
export interface CaseRef {
  caseId: string;
  referentie: string | null;
}

/**
 * Where cases are listed from (spec: "read through the case source"). The local source serves the local
 * store, where the case id is the application id; the ZGW source (case-mirror/) lists zaken, uses the
 * zaak's own id as caseId and the zaak `identificatie` as referentie, so callers resolve to the local row by
 * referentie.
 */
export interface CaseSource {
  listOwn(owner: string, page: PageRequest): Promise<Page<ApplicationSummary>>;
  werkvoorraad(page: PageRequest): Promise<Page<ApplicationSummary>>;
  all(page: PageRequest): Promise<Page<ApplicationSummary>>;
  /** A submitted case (any state after Concept); null when unknown or still a Concept. */
  resolveSubmitted(caseId: string): Promise<CaseRef | null>;
  /** Any case the admin list shows; null when unknown. `applicationId` null: a zaak without a local application. */
  resolveAny(caseId: string): Promise<(CaseRef & { applicationId: string | null }) | null>;
}
