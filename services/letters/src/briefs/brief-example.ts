import type { LetterSection } from '../content/content.schemas';
import { composeSections } from '../passages/compose';
import { PassageLibrary } from '../passages/passage-library';
import { PASSAGES_SEED } from '../passages/passages.seed';

/** The request example of the description: a fresh grant letter for an arts, from the shipped passages. */
export function exampleSections(): LetterSection[] {
  let n = 0;
  const library = new PassageLibrary(PASSAGES_SEED.map((p) => ({ ...p, version: 1 })));
  return composeSections(library, 'arts', 'toekennen', () => `blok-${++n}`);
}
