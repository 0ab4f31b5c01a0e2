/**
 * Finds the table writes in TypeScript source text, for the table-ownership test (ADR 0253): kysely's
 * `insertInto`, `updateTable`, `deleteFrom`, `replaceInto` and `mergeInto`; raw SQL `INSERT INTO`, `UPDATE … SET`,
 * `DELETE FROM` and `MERGE INTO` in strings and templates; and a `table: '<name>'` property, which names a table to
 * the kit's `claimLeased` (that updates it). Comments are left out first, so prose about a write is no write.
 */
export interface TableWrite {
  table: string;
  kind: 'insert' | 'update' | 'delete';
  /** The columns an UPDATE sets, or '*' when they cannot be told (a spread, an INSERT, a DELETE). */
  columns: string[] | '*';
  line: number;
}

/** The source with every comment replaced by spaces (line breaks kept, so line numbers stay right). */
export function withoutComments(source: string): string {
  let out = '';
  // The open quotes and template expressions: '`' inside a template, '{' inside code (a `${` counts too).
  const stack: string[] = [];
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  while (i < source.length) {
    const c = source[i]!;
    const inTemplate = stack[stack.length - 1] === '`';
    if (inTemplate) {
      if (c === '\\') {
        out += source.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        stack.pop();
        out += c;
        i += 1;
      } else if (c === '$' && source[i + 1] === '{') {
        stack.push('{');
        out += '${';
        i += 2;
      } else {
        out += c;
        i += 1;
      }
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      if (c === '`') stack.push('`');
      else if (c === '{') stack.push('{');
      else if (c === '}' && stack[stack.length - 1] === '{') stack.pop();
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The text from `open` (an opening bracket at `from`) to its matching close, both included. */
function balanced(text: string, from: number): string {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = from; i < text.length; i += 1) {
    const c = text[i]!;
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return text.slice(from, i + 1);
    }
  }
  return text.slice(from);
}

/** Splits at the commas outside any bracket. */
function topLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    const c = list[i]!;
    if ('({['.includes(c)) depth += 1;
    else if (')}]'.includes(c)) depth -= 1;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** The keys of `.set({ … })` after an `updateTable` call, or '*' when they are not all written out. */
function kyselySetColumns(text: string, from: number): string[] | '*' {
  const rest = text.slice(from);
  const set = /\.set\(\s*\{/.exec(rest);
  const end = /\.execute\w*\(/.exec(rest);
  if (!set || (end && end.index < set.index)) return '*';
  const object = balanced(rest, set.index + set[0].length - 1).slice(1, -1);
  const columns: string[] = [];
  for (const entry of topLevel(object)) {
    const key = /^(\w+)\s*(:|$)/.exec(entry);
    if (!key) return '*';
    columns.push(key[1]!);
  }
  return columns;
}

/** The columns of an UPDATE's SET list (up to WHERE, RETURNING, FROM or the end of the template). */
function sqlSetColumns(text: string, from: number): string[] | '*' {
  const rest = text.slice(from);
  const end = /\b(WHERE|RETURNING|FROM)\b|`/i.exec(rest);
  const columns: string[] = [];
  for (const entry of topLevel(end ? rest.slice(0, end.index) : rest)) {
    const column = /^(\w+)\s*=/.exec(entry);
    if (!column) return '*';
    columns.push(column[1]!);
  }
  return columns;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

export function tableWrites(source: string): TableWrite[] {
  const text = withoutComments(source);
  const writes: TableWrite[] = [];
  const kysely = /\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*(['"`])(\w+)\2/g;
  for (const m of text.matchAll(kysely)) {
    const kind = m[1] === 'updateTable' ? 'update' : m[1] === 'deleteFrom' ? 'delete' : 'insert';
    const end = m.index + m[0].length;
    const columns = kind === 'update' ? kyselySetColumns(text, end) : '*';
    writes.push({ table: m[3]!, kind, columns, line: lineOf(text, m.index) });
  }
  const raw = /\b(?:(INSERT\s+INTO|MERGE\s+INTO)|(DELETE\s+FROM)|(UPDATE))\s+(?:ONLY\s+)?"?(\w+)"?(\s+SET\b)?/gi;
  for (const m of text.matchAll(raw)) {
    // `UPDATE` without `SET` is prose or `ON CONFLICT … DO UPDATE`, whose columns belong to the INSERT's table.
    if (m[3] && !m[5]) continue;
    const kind = m[1] ? 'insert' : m[2] ? 'delete' : 'update';
    const columns = kind === 'update' ? sqlSetColumns(text, m.index + m[0].length) : '*';
    writes.push({ table: m[4]!, kind, columns, line: lineOf(text, m.index) });
  }
  for (const m of text.matchAll(/\btable:\s*(['"`])(\w+)\1/g))
    writes.push({ table: m[2]!, kind: 'update', columns: '*', line: lineOf(text, m.index) });
  return writes;
}
