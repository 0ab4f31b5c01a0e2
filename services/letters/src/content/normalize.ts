import type { Paragraph, RichTextBlock, RichTextBlockInput, RichTextNode, RichTextNodeInput } from './content.schemas';
import { PLACEHOLDER_BY_KEY } from './placeholders';
import { MARKS, type Mark } from './sections';

/** Marks in one canonical order, so equal content compares equal however a client ordered them. */
function canonicalMarks(marks: readonly Mark[] | null | undefined): Mark[] {
  const given = new Set(marks ?? []);
  return MARKS.filter((m) => given.has(m));
}

function normalizeNode(node: RichTextNodeInput): RichTextNode {
  switch (node.type) {
    case 'text':
      return { type: 'text', text: node.text, marks: canonicalMarks(node.marks), key: null };
    case 'placeholder': {
      // Only a fillable placeholder keeps a value; an auto-resolvable one is resolved when rendered.
      const fillable = PLACEHOLDER_BY_KEY.get(node.key)?.fillable === true;
      return {
        type: 'placeholder',
        text: fillable ? (node.text ?? null) : null,
        marks: canonicalMarks(node.marks),
        key: node.key,
      };
    }
    case 'hardBreak':
      return { type: 'hardBreak', text: null, marks: null, key: null };
  }
}

/** Rich text in the one form the server stores and delivers: every field present, nulls made explicit. */
export function normalizeContent(content: RichTextBlockInput): RichTextBlock {
  const paragraphs: Paragraph[] = (content.paragraphs ?? []).map((p) => ({
    nodes: (p.nodes ?? []).map(normalizeNode),
    list: p.list ?? null,
  }));
  return { paragraphs };
}

/**
 * Whether two contents are equal, whatever the order of their keys: content read back from PostgreSQL (jsonb
 * orders keys its own way) equals the same content built here.
 */
export function sameContent(a: RichTextBlock, b: RichTextBlock): boolean {
  return sameJson(a, b);
}

/** Deep equality of two JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  return firstDifference(a, b, '') === null;
}

/** The path (below `path`) of the first place where two JSON values differ, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, path: string): string | null {
  const at = differenceAt(a, b);
  return at === null ? null : path + at;
}

/**
 * Where below them two JSON values first differ (`''`: right here), or null; the path is built only for a difference.
 */
function differenceAt(a: unknown, b: unknown): string | null {
  if (a === b) return null;
  if (Array.isArray(a) && Array.isArray(b)) return itemDifference(a, b);
  if (isRecord(a) && isRecord(b)) return fieldDifference(a, b);
  return '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function itemDifference(a: unknown[], b: unknown[]): string | null {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const diff = differenceAt(a[i], b[i]);
    if (diff !== null) return `[${i}]${diff}`;
  }
  return null;
}

/** a's keys, then those only b has: the order the first difference is looked for in. */
function fieldDifference(x: Record<string, unknown>, y: Record<string, unknown>): string | null {
  for (const key of Object.keys(x)) {
    const diff = differenceAt(x[key], y[key]);
    if (diff !== null) return `.${key}${diff}`;
  }
  for (const key of Object.keys(y)) {
    if (Object.hasOwn(x, key)) continue;
    const diff = differenceAt(undefined, y[key]);
    if (diff !== null) return `.${key}${diff}`;
  }
  return null;
}
