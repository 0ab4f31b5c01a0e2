import { z } from 'zod';
import { diverged, ok, type Result } from './mirror-rules';
import { SYSTEM, type ZgwPort } from './zgw';
import { Page, readAnswer } from './zgw-read';

const Statustype = z.object({ url: z.url(), volgnummer: z.number().int(), omschrijving: z.string() }).loose();
const Typed = z.object({ url: z.url() }).loose();

/** The zaaktype's types the mirror writes with (decisions §11), read from the Catalogi API. */
export interface CatalogTypes {
  /** Lowest volgnummer first (the Catalogi API lists them in its own order). */
  statustypen: Array<{ url: string; volgnummer: number; omschrijving: string }>;
  initiator: string;
  informatieobjecttype: string;
}

/** How long the types are reused: they change only when a new zaaktype version is published. */
const TTL_MS = 3_600_000;

/** The catalogue of ZGW_ZAAKTYPE_URL, read once and cached; concurrent callers share one read, a failure is not kept. */
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

  private async read(): Promise<Result<CatalogTypes>> {
    const zaaktype = encodeURIComponent(this.urls.zaaktypeUrl);
    const get = (path: string) => this.zgw.call('GET', `${this.urls.catalogiUrl}/${path}`, SYSTEM);
    const [statussen, rollen, documenten] = await Promise.all([
      get(`statustypen?zaaktype=${zaaktype}`).then((a) => readAnswer(a, 200, Page(Statustype), 'statustypen')),
      get(`roltypen?zaaktype=${zaaktype}&omschrijvingGeneriek=initiator`).then((a) => readAnswer(a, 200, Page(Typed), 'roltypen')),
      get(`informatieobjecttypen?zaaktype=${zaaktype}`).then((a) => readAnswer(a, 200, Page(Typed), 'informatieobjecttypen')),
    ]);
    if (statussen.kind !== 'ok') return statussen;
    if (rollen.kind !== 'ok') return rollen;
    if (documenten.kind !== 'ok') return documenten;
    const statustypen = [...statussen.value.results].sort((a, b) => a.volgnummer - b.volgnummer);
    const initiator = rollen.value.results[0]?.url;
    const informatieobjecttype = documenten.value.results[0]?.url;
    if (statustypen.length < 2 || !initiator || !informatieobjecttype) {
      return diverged('the zaaktype lacks two status types, an initiator role type or a document type');
    }
    return ok({ statustypen, initiator, informatieobjecttype });
  }
}
