import type { FieldError } from '@register/problem';
import type {
  LetterBlock,
  LetterBlockInput,
  LetterSection,
  LetterSectionInput,
  RichTextBlock,
} from './content.schemas';
import { firstDifference, normalizeContent, sameContent } from './normalize';
import { PLACEHOLDER_BY_KEY } from './placeholders';
import { SECTION_BY_KEY, SECTIONS } from './sections';

/** The content of one passage version, or undefined when the library has no such version. */
export type PassageContentLookup = (passageId: string, version: number) => RichTextBlock | undefined;

export interface ContentRulesInput {
  sections: readonly LetterSectionInput[] | null | undefined;
  /** The brief's sections as stored: locked sections must come back unchanged. */
  stored: readonly LetterSection[];
  passageContent: PassageContentLookup;
  newBlockId: () => string;
}

export type ContentRulesOutcome = { ok: true; sections: LetterSection[] } | { ok: false; errors: FieldError[] };

const err = (field: string, code: string, detail: string): FieldError => ({ field, code, detail });

/** The six sections, each once and in order (ADR 0010). */
function checkStructure(sections: readonly LetterSectionInput[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  sections.forEach((s, i) => {
    if (seen.has(s.sectionKey))
      errors.push(err(`sections[${i}].sectionKey`, 'duplicate-section', `Section ${s.sectionKey} is given twice.`));
    seen.add(s.sectionKey);
  });
  for (const def of SECTIONS) {
    if (def.required && !seen.has(def.sectionKey))
      errors.push(err('sections', 'required-section-missing', `Section ${def.sectionKey} is required.`));
  }
  if (errors.length > 0) return errors;
  // Each of the six keys once (above), so there are as many sections as SECTIONS.
  sections.forEach((s, i) => {
    const expected = SECTIONS[i]!.sectionKey;
    if (expected !== s.sectionKey)
      errors.push(err(`sections[${i}].sectionKey`, 'section-order', `Section ${expected} belongs at position ${i}.`));
  });
  return errors;
}

/** A section's title, `required` and `locked` are the server's; a client may omit them, not change them. */
function checkDefinition(section: LetterSectionInput, i: number): FieldError[] {
  const def = SECTION_BY_KEY.get(section.sectionKey)!;
  const errors: FieldError[] = [];
  for (const field of ['title', 'required', 'locked'] as const) {
    const given = section[field];
    if (given !== null && given !== undefined && given !== def[field])
      errors.push(
        err(`sections[${i}].${field}`, 'section-definition', `The ${field} of section ${def.sectionKey} is fixed.`),
      );
  }
  return errors;
}

/** What a locked section's blocks are compared on (block ids and `edited` are the server's). */
const comparable = (
  blocks: ReadonlyArray<{
    type: string;
    content: RichTextBlock;
    sourcePassageId?: string | null;
    sourceVersion?: number | null;
  }>,
) =>
  blocks.map((b) => ({
    type: b.type,
    content: b.content,
    sourcePassageId: b.sourcePassageId ?? null,
    sourceVersion: b.sourceVersion ?? null,
  }));
const normalized = (blocks: readonly LetterBlockInput[] | null | undefined) =>
  (blocks ?? []).map((b) => ({ ...b, content: normalizeContent(b.content) }));

function checkBlock(
  block: LetterBlockInput,
  path: string,
  input: ContentRulesInput,
  blockIds: Set<string>,
): { errors: FieldError[]; block: LetterBlock } {
  const errors: FieldError[] = [];
  const content = normalizeContent(block.content);
  // Normalized content has every array, and the schema gives every placeholder a key: the fall-backs only type it.
  // Stryker disable next-line OptionalChaining
  content.paragraphs?.forEach((p, pi) =>
    // Stryker disable next-line OptionalChaining
    p.nodes?.forEach((n, ni) => {
      // Stryker disable next-line StringLiteral
      if (n.type === 'placeholder' && !PLACEHOLDER_BY_KEY.has(n.key ?? '')) {
        errors.push(
          err(
            `${path}.content.paragraphs[${pi}].nodes[${ni}].key`,
            'unknown-placeholder',
            `Placeholder ${n.key} is not one of this letter's placeholders.`,
          ),
        );
      }
    }),
  );
  const blockId = block.blockId ?? input.newBlockId();
  if (blockIds.has(blockId))
    errors.push(err(`${path}.blockId`, 'duplicate-block', `Block id ${blockId} is used twice.`));
  blockIds.add(blockId);
  const sourcePassageId = block.sourcePassageId ?? null;
  const sourceVersion = block.sourceVersion ?? null;
  let edited: boolean | null = null;
  if (block.type === 'tekst') {
    if (sourcePassageId !== null || sourceVersion !== null)
      errors.push(err(`${path}.sourcePassageId`, 'not-a-passage', 'A tekst block has no source passage.'));
  } else if (sourcePassageId === null || sourceVersion === null) {
    errors.push(
      err(
        `${path}.${sourcePassageId === null ? 'sourcePassageId' : 'sourceVersion'}`,
        'passage-source-required',
        'A passage block names its passage and version.',
      ),
    );
  } else {
    const original = input.passageContent(sourcePassageId, sourceVersion);
    if (!original)
      errors.push(
        err(
          `${path}.sourcePassageId`,
          'unknown-passage',
          `The library has no passage ${sourcePassageId} version ${sourceVersion}.`,
        ),
      );
    else edited = !sameContent(content, original);
  }
  return { errors, block: { type: block.type, blockId, content, sourcePassageId, sourceVersion, edited } };
}

/**
 * The save rules of ADR 0010 beyond the schema: the six sections in order, locked ones unchanged,
 * passages that exist, placeholders of the letter, unique block ids. Each error names the offending node.
 * Returns the sections as stored: normalized, with block ids given and `edited` decided by the server.
 */
export function checkSections(input: ContentRulesInput): ContentRulesOutcome {
  if (!input.sections)
    return {
      ok: false,
      errors: SECTIONS.map((s) => err('sections', 'required-section-missing', `Section ${s.sectionKey} is required.`)),
    };
  const structure = checkStructure(input.sections);
  if (structure.length > 0) return { ok: false, errors: structure };
  const errors: FieldError[] = [];
  const blockIds = new Set<string>();
  const sections: LetterSection[] = input.sections.map((section, i) => {
    const def = SECTION_BY_KEY.get(section.sectionKey)!;
    errors.push(...checkDefinition(section, i));
    const stored = input.stored.find((s) => s.sectionKey === def.sectionKey);
    if (def.locked && stored) {
      const storedBlocks = stored.blocks ?? [];
      const diff = firstDifference(
        comparable(normalized(section.blocks)),
        comparable(storedBlocks),
        `sections[${i}].blocks`,
      );
      if (diff !== null) errors.push(err(diff, 'locked-section', `Section ${def.sectionKey} is locked.`));
      // A stored block always has its id (the server gave it); the check only types it.
      // Stryker disable next-line ConditionalExpression
      for (const b of storedBlocks) if (b.blockId) blockIds.add(b.blockId);
      return stored;
    }
    const blocks = (section.blocks ?? []).map((b, j) => {
      const checked = checkBlock(b, `sections[${i}].blocks[${j}]`, input, blockIds);
      errors.push(...checked.errors);
      return checked.block;
    });
    return { sectionKey: def.sectionKey, title: def.title, required: def.required, blocks, locked: def.locked };
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, sections };
}
