import type { CatalogiSeed, Resource } from './catalogi.seed';

/** The seeded catalogue, looked up by URL as the other components refer to it. */
export class CatalogiIndex {
  private readonly byUrl = new Map<string, Resource>();

  constructor(readonly seed: CatalogiSeed) {
    for (const resource of [
      seed.catalogus,
      ...seed.zaaktypen,
      ...seed.statustypen,
      ...seed.roltypen,
      ...seed.informatieobjecttypen,
    ]) {
      this.byUrl.set(resource.url, resource);
    }
  }

  get(url: string): Resource | undefined {
    return this.byUrl.get(url);
  }

  zaaktype(url: string): Resource | undefined {
    return this.seed.zaaktypen.find((item) => item.url === url);
  }

  statustype(url: string): Resource | undefined {
    return this.seed.statustypen.find((item) => item.url === url);
  }

  roltype(url: string): Resource | undefined {
    return this.seed.roltypen.find((item) => item.url === url);
  }

  informatieobjecttype(url: string): Resource | undefined {
    return this.seed.informatieobjecttypen.find((item) => item.url === url);
  }
}
