import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
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
// eslint-disable-next-line complexity -- one pass of a lexer: each state (code, string, template, comment) a branch
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

/**
 * Which part of a service writes which table (ADR 0253). An owner is a path under the service's `src/`: a feature
 * folder, or one file. Any other part that needs a change in the table calls its owner's function.
 */
export interface Ownership {
  owners: string[];
  /** Parts that may UPDATE only these columns of the table (an attention flag, say). */
  flag?: { by: string[]; columns: string[] };
}

export interface SourceFile {
  /** Relative to src/, with forward slashes. */
  file: string;
  source: string;
}

/** Every TypeScript file under `dir`. */
export function sourcesOf(dir: string): SourceFile[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f.split(path.sep).join('/'), source: readFileSync(path.join(dir, f), 'utf8') }));
}

/** The tables a service's database interface names (`interface <name> … { table: …; }` in `file`). */
export function databaseTables(file: string, name: string): string[] {
  const text = readFileSync(file, 'utf8');
  const body = new RegExp(`interface ${name}\\b[^{]*\\{([^}]*)\\}`).exec(text)?.[1] ?? '';
  const tables = [...body.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]!);
  return /interface \w+ extends WithOutbox/.test(text) ? tables.concat('outbox') : tables;
}

/** One sentence per write that its file may not make. */
export function ownershipViolations(files: SourceFile[], owners: Record<string, Ownership>): string[] {
  const found: string[] = [];
  for (const { file, source } of files) {
    for (const write of tableWrites(source)) {
      const at = `${file}:${write.line}`;
      const ownership = owners[write.table];
      if (!ownership) {
        found.push(`${at} writes ${write.table}, which has no owner in TABLE_OWNERS`);
        continue;
      }
      if (ownership.owners.some((owner) => file.startsWith(owner))) continue;
      const flag = ownership.flag;
      const flagOnly =
        flag !== undefined &&
        write.kind === 'update' &&
        write.columns !== '*' &&
        flag.by.some((by) => file.startsWith(by)) &&
        write.columns.every((column) => flag.columns.includes(column));
      if (flagOnly) continue;
      const by = ownership.owners.length > 0 ? ownership.owners.join(', ') : 'the service kit';
      const what = write.columns === '*' ? write.kind : `${write.kind} of ${write.columns.join(', ')}`;
      found.push(`${at} writes ${write.table} (${what}), which ${by} owns`);
    }
  }
  return found;
}

/** The tables the owners write that the scan never saw written: a map that no longer matches the code. */
export function unseenTables(files: SourceFile[], owners: Record<string, Ownership>): string[] {
  const written = new Set(files.flatMap(({ source }) => tableWrites(source).map((w) => w.table)));
  return Object.entries(owners)
    .filter(([table, o]) => o.owners.length > 0 && !written.has(table))
    .map(([table]) => table);
}
