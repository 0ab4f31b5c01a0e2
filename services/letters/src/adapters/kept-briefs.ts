import { BoundedMap } from '@register/service-kit';
import type { KeptBriefs, LoadedBrief } from '../briefs/brief-ports';

/** KeptBriefs in this process's memory: the most recently kept ones, at most `maxEntries`. */
export class KeptBriefsInMemory implements KeptBriefs {
  private readonly entries: BoundedMap<string, LoadedBrief>;

  constructor(maxEntries = 500) {
    this.entries = new BoundedMap(maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): LoadedBrief | undefined {
    return this.entries.get(key);
  }

  remember(key: string, brief: LoadedBrief): void {
    const current = this.entries.get(key);
    // Entries are never changed in place, so a copy handed out stays the brief at its revision.
    if (current && BigInt(current.revision) > BigInt(brief.revision)) return;
    this.entries.set(key, brief);
  }
}
