import type { Kysely } from 'kysely';
import { NotFoundError, validationError } from '@register/problem';
import { cachedJson as cached, isValidDate, type CachedBody } from '@register/service-kit';
import type { ReferenceDb } from '../database';
import { listFlags, type FlagRow } from '../flags/flags.repository';
import { listAllRows, listTables, type StamdataTableRow } from '../stamdata/stamdata.repository';

type TableSummary = Pick<StamdataTableRow, 'id' | 'label' | 'columns' | 'temporal'>;

interface TableData extends StamdataTableRow {
  rows: Array<{ data: Record<string, unknown>; geldigVanaf: string | null; geldigTot: string | null }>;
}

/** Bodies kept per (table, day); the few distinct days asked for stay, the rest are recomputed. */
const MAX_CACHED_BODIES = 512;

/**
 * Stamdata and flags served from memory (issue: reference reads skip the database). The whole reference set
 * is small; it is loaded at start and again whenever a flag changes (this replica's write or another's
 * flag-changed event) and, as a safety net, every minute. Bodies are serialised once per (table, day).
 */
export class ReferenceSnapshot {
  private tables = new Map<string, TableData>();
  private summaries: CachedBody = cached([]);
  private summaryList: TableSummary[] = [];
  private flags: CachedBody = cached([]);
  private flagList: FlagRow[] = [];
  private bodies = new Map<string, CachedBody>();
  private loadsStarted = 0;
  private loadServed = 0;

  constructor(private readonly db: Kysely<ReferenceDb>) {}

  /**
   * Reads everything again; what is served switches at once when the load is complete. Loads may overlap (a
   * write's own reload and an event's); a load that finishes after a later-started one is dropped, so what is
   * served never goes back to what was read before a committed change.
   */
  async reload(): Promise<void> {
    const load = ++this.loadsStarted;
    const [tables, rows, flags] = await Promise.all([listTables(this.db), listAllRows(this.db), listFlags(this.db)]);
    if (load < this.loadServed) return;
    this.loadServed = load;
    const next = new Map<string, TableData>(tables.map((t) => [t.id, { ...t, rows: [] }]));
    for (const r of rows)
      next.get(r.table_id)?.rows.push({ data: r.data, geldigVanaf: r.geldig_vanaf, geldigTot: r.geldig_tot });
    this.tables = next;
    this.summaryList = tables.map(({ id, label, columns, temporal }) => ({ id, label, columns, temporal }));
    this.summaries = cached(this.summaryList);
    this.flagList = flags;
    this.flags = cached(flags);
    this.bodies = new Map();
  }

  tableSummaries(): CachedBody {
    return this.summaries;
  }

  /** The same as objects, for a page of them (ADR 0014). */
  tableSummaryList(): readonly TableSummary[] {
    return this.summaryList;
  }

  featureFlags(): CachedBody {
    return this.flags;
  }

  featureFlagList(): readonly FlagRow[] {
    return this.flagList;
  }

  /**
   * ADR 0009: an unknown table is 404 (first), a malformed `peildatum` 400 on every table, omitted means
   * `today` (the date in Amsterdam), and on a non-temporal table a valid one changes nothing.
   */
  table(id: string, peildatum: string | undefined, today: string): CachedBody {
    const table = this.tables.get(id);
    if (!table) throw new NotFoundError('stamdata table');
    if (peildatum !== undefined && !isValidDate(peildatum)) {
      throw validationError([
        { field: 'peildatum', code: 'invalid_date', detail: 'peildatum must be a real date in the form YYYY-MM-DD.' },
      ]);
    }
    const day = table.temporal ? (peildatum ?? today) : '';
    const key = `${id}\u0000${day}`;
    let body = this.bodies.get(key);
    if (!body) {
      // Valid time: geldigVanaf inclusive, geldigTot exclusive (null = open); YYYY-MM-DD strings compare as dates.
      const rows = table.temporal
        ? table.rows.filter(
            (r) => r.geldigVanaf !== null && r.geldigVanaf <= day && (r.geldigTot === null || r.geldigTot > day),
          )
        : table.rows;
      body = cached({
        id: table.id,
        label: table.label,
        columns: table.columns,
        temporal: table.temporal,
        rows: rows.map((r) => r.data),
      });
      if (this.bodies.size >= MAX_CACHED_BODIES) this.bodies.clear();
      this.bodies.set(key, body);
    }
    return body;
  }
}
