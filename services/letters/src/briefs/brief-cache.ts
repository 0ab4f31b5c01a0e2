import type { ContentJson, StoredBrief } from './briefs.repository';

/** A brief as read or written, with its content's JSON text (what a view carries and a write stores). */
export interface LoadedBrief extends StoredBrief {
  json: ContentJson;
}

/**
 * The briefs read or written last, by address (`''`: the shared one), each at the revision it was seen at.
 * Only a copy: a read still asks PostgreSQL for the revision and takes the content from here only when the
 * revisions match, and a write from here is a compare-and-set on the revision, so a write by another replica
 * is seen at once. Entries are never changed in place.
 */
export class BriefCache {
  private readonly entries = new Map<string, LoadedBrief>();

  constructor(private readonly maxEntries = 500) {}

  get(key: string): LoadedBrief | undefined {
    return this.entries.get(key);
  }

  /** Keeps `brief` unless a later revision is kept already (reads and writes may finish out of order). */
  remember(key: string, brief: LoadedBrief): void {
    const current = this.entries.get(key);
    if (current && BigInt(current.revision) > BigInt(brief.revision)) return;
    this.entries.delete(key);
    this.entries.set(key, brief);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
