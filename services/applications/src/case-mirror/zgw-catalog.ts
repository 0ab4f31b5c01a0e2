import { z } from 'zod';
import { diverged, ok, type Result } from './mirror-rules';
import { SYSTEM, type ZgwAnswer, type ZgwPort } from './zgw';
import { Page, readAnswer } from './zgw-read';

const Statustype = z.object({ url: z.url(), volgnummer: z.number().int(), omschrijving: z.string() }).loose();
const Typed = z.object({ url: z.url() }).loose();

/** The zaaktype's types the mirror writes with (ADR 0011), read from the Catalogi API. */
export interface CatalogTypes {
  /** Lowest volgnummer first (the Catalogi API lists them in its own order). */
  statustypen: Array<{ url: string; volgnummer: number; omschrijving: string }>;
  initiator: string;
  informatieobjecttype: string;
}

/** A zaaktype has a handful of types; a list that goes on longer is not followed further. */
const MAX_PAGES = 20;
/** How long the types are reused: they change only when a new zaaktype version is published. */
const TTL_MS = 3_600_000;

/**
 * The catalogue of ZGW_ZAAKTYPE_URL, read once and cached; concurrent callers share one read, a failure is not kept.
 */
export class ZgwCatalog {
  private cached: { until: number; types: Promise<Result<CatalogTypes>> } | null = null;

  constructor(
    private readonly zgw: ZgwPort,
    private readonly urls: { catalogiUrl: string; zaaktypeUrl: string },
  ) {}

  types(): Promise<Result<CatalogTypes>> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.types;
    const entry = { until: Date.now() + TTL_MS, types: this.read() };
    this.cached = entry;
    void entry.types.then((result) => {
      if (result.kind !== 'ok' && this.cached === entry) this.cached = null;
    });
    return entry.types;
  }

  /** Every page of a list (Catalogi lists are paginated like the others), following `next`. */
  private async all<S extends z.ZodType>(path: string, item: S, what: string): Promise<Result<Array<z.output<S>>>> {
    const results: Array<z.output<S>> = [];
    let url: string | null | undefined = `${this.urls.catalogiUrl}/${path}`;
    for (let page = 0; url && page < MAX_PAGES; page++) {
      const answer: ZgwAnswer = await this.zgw.call('GET', url, SYSTEM);
      const read = readAnswer(answer, 200, Page(item), what);
      if (read.kind !== 'ok') return read;
      results.push(...(read.value.results as Array<z.output<S>>));
      url = read.value.next;
    }
    return ok(results);
  }

  private async read(): Promise<Result<CatalogTypes>> {
    const zaaktype = encodeURIComponent(this.urls.zaaktypeUrl);
    const [statussen, rollen, documenten] = await Promise.all([
      this.all(`statustypen?zaaktype=${zaaktype}`, Statustype, 'statustypen'),
      this.all(`roltypen?zaaktype=${zaaktype}&omschrijvingGeneriek=initiator`, Typed, 'roltypen'),
      this.all(`informatieobjecttypen?zaaktype=${zaaktype}`, Typed, 'informatieobjecttypen'),
    ]);
    if (statussen.kind !== 'ok') return statussen;
    if (rollen.kind !== 'ok') return rollen;
    if (documenten.kind !== 'ok') return documenten;
    const statustypen = [...statussen.value].sort((a, b) => a.volgnummer - b.volgnummer);
    const initiator = rollen.value[0]?.url;
    const informatieobjecttype = documenten.value[0]?.url;
    if (statustypen.length < 2 || !initiator || !informatieobjecttype) {
      return diverged('the zaaktype lacks two status types, an initiator role type or a document type');
    }
    return ok({ statustypen, initiator, informatieobjecttype });
  }
}
