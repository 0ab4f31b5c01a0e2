import { randomUUID } from 'node:crypto';
import { BoundedMap, cachedJson, cachedJsonText, type CachedBody } from '@register/service-kit';
import type { ViewBodies } from '../briefs/brief-ports';
import type { BriefView } from '../briefs/briefs.schemas';

interface Entry {
  sections: string;
  passages: string;
  body: CachedBody;
}

/** Where `mark` occurs in `text`, if exactly once. */
function onlyPlace(text: string, mark: string): number {
  const at = text.indexOf(mark);
  return at >= 0 && text.indexOf(mark, at + 1) < 0 ? at : -1;
}

/**
 * The view bodies sent last, by the rest of the view (state, caller's decisions, letterhead, case context,
 * serialised with stand-ins for the large parts): one is sent again while its content and passages are the same
 * text, so a read of an unchanged letter, or a save that changed nothing, encodes and hashes no 25 KB. Bodies
 * carry the ETag `res.json` would give them (ADR 0080). Bounded; the oldest goes first.
 */
export class ViewBodiesInMemory implements ViewBodies {
  private readonly entries: BoundedMap<string, Entry>;
  // Stand-ins for the large parts while the rest is serialised, and their JSON text (the NUL escaped). The random
  // part keeps text a user wrote from being taken for one; should a view hold one all the same, it is serialised
  // whole (see bodyOf).
  private readonly stand: { sections: string; passages: string };
  private readonly mark: { sections: string; passages: string };

  constructor(maxEntries = 200, nonce: string = randomUUID()) {
    this.entries = new BoundedMap(maxEntries);
    this.stand = { sections: `\u0000sections:${nonce}`, passages: `\u0000passages:${nonce}` };
    this.mark = { sections: JSON.stringify(this.stand.sections), passages: JSON.stringify(this.stand.passages) };
  }

  bodyOf(view: BriefView, asText: { sections: string; availablePassages: string }): CachedBody {
    const { stand, mark } = this;
    // Spreading keeps the keys' order, so this is the view's own text with the stand-ins in place.
    const rest = JSON.stringify({
      ...view,
      brief: { ...view.brief, sections: stand.sections },
      availablePassages: stand.passages,
    });
    const s = onlyPlace(rest, mark.sections);
    const p = onlyPlace(rest, mark.passages);
    if (s < 0 || p < s) return cachedJson(view, 'weak');
    const hit = this.entries.get(rest);
    // Equal strings: the same object when the content came from the kept brief, else one comparison of bytes.
    if (hit && hit.sections === asText.sections && hit.passages === asText.availablePassages) return hit.body;
    const body = cachedJsonText(
      rest.slice(0, s) +
        asText.sections +
        rest.slice(s + mark.sections.length, p) +
        asText.availablePassages +
        rest.slice(p + mark.passages.length),
      'weak',
    );
    this.entries.set(rest, { sections: asText.sections, passages: asText.availablePassages, body });
    return body;
  }
}
