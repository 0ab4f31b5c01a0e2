import { z } from 'zod';
import { decodeCursor, encodeCursor } from '@register/service-kit';
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../data-access/database';
import * as repo from '../data-access/applications.repository';
import { toListSummary, type ApplicationSummary } from './views';

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
 * store, where the case id is the application id; a ZGW source would list zaken, use the zaak's own id as
 * caseId and the zaak `identificatie` as referentie, so callers resolve to the local row by referentie.
 */
export interface CaseSource {
  listOwn(owner: string, page: PageRequest): Promise<Page<ApplicationSummary>>;
  werkvoorraad(page: PageRequest): Promise<Page<ApplicationSummary>>;
  all(page: PageRequest): Promise<Page<ApplicationSummary>>;
  /** A submitted case (any state after Concept); null when unknown or still a Concept. */
  resolveSubmitted(caseId: string): Promise<CaseRef | null>;
  /** Any case the admin list shows; null when unknown. */
  resolveAny(caseId: string): Promise<CaseRef & { applicationId: string } | null>;
}

/**
 * A cursor names the last row by its exact key_at (microseconds) and id. Cursors of earlier versions carry
 * milliseconds and are still read (docs/decisions-applications.md, "Exact list cursors"). Year 0000 passes
 * the ISO check but is no PostgreSQL date, so it would fail the cast.
 */
const keyset = z.object({ at: z.iso.datetime().refine((at) => !at.startsWith('0000')), id: z.uuid() });
type Row = repo.ListRow;

export class LocalCaseSource implements CaseSource {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  private async page(req: PageRequest, fetch: (limit: number, after: repo.Keyset | null) => Promise<Row[]>, owner: 'plain' | 'masked'): Promise<Page<ApplicationSummary>> {
    // One row more than asked tells whether a next page exists without a count.
    const rows = await fetch(req.limit + 1, decodeCursor(req.cursor, keyset));
    const items = rows.slice(0, req.limit);
    const last = items[items.length - 1];
    const nextCursor = rows.length > req.limit && last ? encodeCursor({ at: last.key_at, id: last.id }) : null;
    return { items: items.map((r) => toListSummary(r, owner)), nextCursor };
  }

  listOwn(owner: string, page: PageRequest) {
    return this.page(page, (limit, after) => repo.listByOwner(this.db, owner, limit, after), 'plain');
  }

  werkvoorraad(page: PageRequest) {
    return this.page(page, (limit, after) => repo.listSubmitted(this.db, limit, after), 'masked');
  }

  all(page: PageRequest) {
    return this.page(page, (limit, after) => repo.listAll(this.db, limit, after), 'masked');
  }

  async resolveSubmitted(caseId: string): Promise<CaseRef | null> {
    const row = await repo.findById(this.db, caseId);
    if (!row || row.status_tag === 'Concept' || !row.referentie) return null;
    return { caseId: row.id, referentie: row.referentie };
  }

  async resolveAny(caseId: string) {
    const row = await repo.findById(this.db, caseId);
    return row ? { caseId: row.id, referentie: row.referentie, applicationId: row.id } : null;
  }
}
