import type { LetterSection } from '../content/content.schemas';
import { SECTIONS } from '../content/sections';
import type { Besluit } from './passages.schemas';
import type { PassageLibrary } from './passage-library';

/**
 * A fresh concept (ADR 0010): every section in order, filled with the default passages for the brief's
 * beroep and besluit. Blocks remember their passage and version and start unedited.
 */
export function composeSections(
  library: PassageLibrary,
  beroep: string | null,
  besluit: Besluit,
  newBlockId: () => string,
): LetterSection[] {
  return SECTIONS.map((def) => ({
    sectionKey: def.sectionKey,
    title: def.title,
    required: def.required,
    locked: def.locked,
    blocks: library.defaultsFor(def.sectionKey, beroep, besluit).map((p) => ({
      type: 'passage' as const,
      blockId: newBlockId(),
      content: p.content,
      sourcePassageId: p.passageId,
      sourceVersion: p.version,
      edited: false,
    })),
  }));
}
