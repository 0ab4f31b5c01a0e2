import { JsonBody } from '../shared/json-reply';
import { viewText, type ViewParts } from './brief-view';

interface Entry {
  sections: string;
  passages: string;
  body: JsonBody;
}

/**
 * The view bodies sent last, by their small parts (state, caller's decisions, letterhead, case context): one is
 * sent again while its content and passages are the same text, so a read of an unchanged letter, or a save that
 * changed nothing, encodes and hashes no 25 KB. Bounded; the oldest goes first.
 */
export class ViewBodies {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 200) {}

  bodyOf(parts: ViewParts, passages: string): JsonBody {
    // NUL never occurs in JSON text (JSON.stringify escapes it), so the key is unambiguous.
    const key = `${parts.head}\u0000${parts.middle}\u0000${parts.tail}`;
    const hit = this.entries.get(key);
    // Equal strings: the same object when the content came from the kept brief, else one comparison of bytes.
    if (hit && hit.sections === parts.sections && hit.passages === passages) return hit.body;
    const body = new JsonBody(viewText(parts, passages));
    this.entries.delete(key);
    this.entries.set(key, { sections: parts.sections, passages, body });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return body;
  }
}
