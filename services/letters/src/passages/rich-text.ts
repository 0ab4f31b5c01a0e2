import type { Paragraph, RichTextBlock, RichTextNode } from '../content/content.schemas';
import type { Mark } from '../content/sections';

const TOKEN = /\{([a-zA-Z.]+)\}|\*\*([^*]+)\*\*|_([^_]+)_|\n/g;

function nodesOf(line: string): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  const text = (t: string, marks: Mark[] = []) => {
    if (t !== '') nodes.push({ type: 'text', text: t, marks, key: null });
  };
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    text(line.slice(last, m.index));
    if (m[1]) nodes.push({ type: 'placeholder', text: null, marks: [], key: m[1] });
    else if (m[2]) text(m[2], ['bold']);
    else if (m[3]) text(m[3], ['italic']);
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
