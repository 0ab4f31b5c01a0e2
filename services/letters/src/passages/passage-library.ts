import type { RichTextBlock } from '../content/content.schemas';
import type { SectionKey } from '../content/sections';
import type { Besluit, LibraryPassage } from './passages.schemas';

/**
 * The passage library as loaded at start (it changes only when the service ships new texts): every version
 * for `edited` and saves, the latest versions for what a brief offers and builds from.
 */
export class PassageLibrary {
  private readonly versions = new Map<string, RichTextBlock>();
  private readonly latest: LibraryPassage[];
  /** What a brief of one beroep offers, as a list and as JSON text: the library does not change while running. */
  private readonly available = new Map<string | null, { list: LibraryPassage[]; json: string }>();

  constructor(all: readonly LibraryPassage[]) {
    const newest = new Map<string, LibraryPassage>();
    for (const p of all) {
      this.versions.set(`${p.passageId}@${p.version}`, p.content);
      const seen = newest.get(p.passageId!);
      if (!seen || seen.version < p.version) newest.set(p.passageId!, p);
    }
    this.latest = [...newest.values()].sort((a, b) => (a.passageId! < b.passageId! ? -1 : 1));
  }

  content(passageId: string, version: number): RichTextBlock | undefined {
    return this.versions.get(`${passageId}@${version}`);
  }

  /** ADR 0010: the general passages and those of the brief's beroep (latest versions); one list, kept as is. */
  availableFor(beroep: string | null): LibraryPassage[] {
    return this.offered(beroep).list;
  }

  /** `JSON.stringify(availableFor(beroep))`, made once. */
  availableJsonFor(beroep: string | null): string {
    return this.offered(beroep).json;
  }

  private offered(beroep: string | null): { list: LibraryPassage[]; json: string } {
    let offered = this.available.get(beroep);
    if (offered === undefined) {
      const list = this.latest.filter((p) => p.scope === 'algemeen' || (beroep !== null && p.beroep === beroep));
      offered = { list, json: JSON.stringify(list) };
      this.available.set(beroep, offered);
    }
    return offered;
  }

  /**
   * The starter passages of one section: defaults of the besluit beat general ones, and within those a
   * passage of the brief's beroep beats an `algemeen` one.
   */
  defaultsFor(sectionKey: SectionKey, beroep: string | null, besluit: Besluit): LibraryPassage[] {
    const candidates = this.availableFor(beroep).filter(
      (p) => p.isDefault && p.sectionKey === sectionKey && (p.besluit === null || p.besluit === besluit),
    );
    const byBesluit = candidates.some((p) => p.besluit === besluit)
      ? candidates.filter((p) => p.besluit === besluit)
      : candidates;
    return byBesluit.some((p) => p.scope === 'beroep') ? byBesluit.filter((p) => p.scope === 'beroep') : byBesluit;
  }
}
