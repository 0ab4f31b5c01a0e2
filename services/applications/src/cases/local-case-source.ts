import type { Kysely } from 'kysely';
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '@register/service-kit';
import type { AppDatabase } from '../database';
import type { ApplicationSummary } from './application.schemas';
import { toListSummary } from './application-views';
import { findById } from '../applications/application-reads';
import { listAll, listByOwner, listSubmitted, type Keyset, type ListRow } from './cases.repository';
import type { CaseRef, CaseSource, Page, PageRequest } from './case-source';

/**
 * A cursor names the last row by its exact key_at (microseconds) and id; one with milliseconds, as a client may
 * still hold, is read too (ADR 0062). Year 0000 passes the ISO check but is no PostgreSQL date, so it would fail
 * the cast.
 */
const keyset = z.object({ at: z.iso.datetime().refine((at) => !at.startsWith('0000')), id: z.uuid() });

/** The case source of the local store: the case id is the application id. */
export class LocalCaseSource implements CaseSource {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  private async page(
    req: PageRequest,
    fetch: (limit: number, after: Keyset | null) => Promise<ListRow[]>,
    owner: 'plain' | 'masked',
  ): Promise<Page<ApplicationSummary>> {
    // One row more than asked tells whether a next page exists without a count.
    const rows = await fetch(req.limit + 1, decodeCursor(req.cursor, keyset));
    const items = rows.slice(0, req.limit);
    const last = items[items.length - 1];
    const nextCursor = rows.length > req.limit && last ? encodeCursor({ at: last.key_at, id: last.id }) : null;
    return { items: items.map((r) => toListSummary(r, owner)), nextCursor };
  }

  listOwn(owner: string, page: PageRequest) {
    return this.page(page, (limit, after) => listByOwner(this.db, owner, limit, after), 'plain');
  }

  werkvoorraad(page: PageRequest) {
    return this.page(page, (limit, after) => listSubmitted(this.db, limit, after), 'masked');
  }

  all(page: PageRequest) {
    return this.page(page, (limit, after) => listAll(this.db, limit, after), 'masked');
  }

  async resolveSubmitted(caseId: string): Promise<CaseRef | null> {
    const row = await findById(this.db, caseId);
    if (!row || row.status_tag === 'Concept' || !row.referentie) return null;
    return { caseId: row.id, referentie: row.referentie };
  }

  async resolveAny(caseId: string) {
    const row = await findById(this.db, caseId);
    return row ? { caseId: row.id, referentie: row.referentie, applicationId: row.id } : null;
  }
}
