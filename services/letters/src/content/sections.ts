/** ADR 0010: the sections of every brief, in this order; `kenmerk` and `bezwaar` are locked. */
export const SECTION_KEYS = ['kenmerk', 'aanhef', 'kern', 'besluit', 'bezwaar', 'afsluiting'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export interface SectionDefinition {
  sectionKey: SectionKey;
  title: string;
  required: boolean;
  locked: boolean;
}

export const SECTIONS: readonly SectionDefinition[] = [
  { sectionKey: 'kenmerk', title: 'Kenmerk en datum', required: true, locked: true },
  { sectionKey: 'aanhef', title: 'Aanhef', required: true, locked: false },
  { sectionKey: 'kern', title: 'Aanleiding en beoordeling', required: true, locked: false },
  { sectionKey: 'besluit', title: 'Besluit', required: true, locked: false },
  { sectionKey: 'bezwaar', title: 'Bezwaar', required: true, locked: true },
  { sectionKey: 'afsluiting', title: 'Afsluiting', required: true, locked: false },
];

export const SECTION_BY_KEY: ReadonlyMap<string, SectionDefinition> = new Map(SECTIONS.map((s) => [s.sectionKey, s]));

export const BLOCK_TYPES = ['tekst', 'passage'] as const;
export const NODE_TYPES = ['text', 'placeholder', 'hardBreak'] as const;
export const MARKS = ['bold', 'italic', 'underline'] as const;
export const LIST_KINDS = ['bullet', 'ordered'] as const;
export type Mark = (typeof MARKS)[number];
