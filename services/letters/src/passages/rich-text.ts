import type { Paragraph, RichTextBlock, RichTextNode } from '../content/content.schemas';
import { MARKS, type Mark } from '../content/sections';

const TOKEN = /\{([a-zA-Z.]+)\}|\*\*([^*]+)\*\*|_([^_]+)_|\n/g;

/** Marks in the canonical order a saved letter has them (so a shipped text compares equal to itself saved). */
const withMark = (marks: readonly Mark[], mark: Mark): Mark[] => MARKS.filter((m) => m === mark || marks.includes(m));

/** The nodes of one line; text inside `**…**` or `_…_` keeps its placeholders, which then carry the mark too. */
function nodesOf(line: string, marks: Mark[] = []): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  const text = (t: string) => {
    if (t !== '') nodes.push({ type: 'text', text: t, marks, key: null });
  };
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    text(line.slice(last, m.index));
    if (m[1]) nodes.push({ type: 'placeholder', text: null, marks, key: m[1] });
    else if (m[2]) nodes.push(...nodesOf(m[2], withMark(marks, 'bold')));
    else if (m[3]) nodes.push(...nodesOf(m[3], withMark(marks, 'italic')));
    else nodes.push({ type: 'hardBreak', text: null, marks: null, key: null });
    last = m.index + m[0].length;
  }
  text(line.slice(last));
  return nodes;
}

/**
 * Authoring shorthand for the shipped texts: one string per paragraph; `{key}` is a placeholder, `**x**` bold,
 * `_x_` italic, a newline a hard break; a paragraph starting with `- ` or `1. ` is a list item.
 */
export function richText(...paragraphs: string[]): RichTextBlock {
  return {
    paragraphs: paragraphs.map((p): Paragraph => {
      if (p.startsWith('- ')) return { nodes: nodesOf(p.slice(2)), list: 'bullet' };
      const ordered = /^\d+\. /.exec(p);
      if (ordered) return { nodes: nodesOf(p.slice(ordered[0].length)), list: 'ordered' };
      return { nodes: nodesOf(p), list: null };
    }),
  };
}
