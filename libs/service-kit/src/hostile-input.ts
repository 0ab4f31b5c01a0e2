import type { RequestHandler } from 'express';
import { validationError, type FieldError } from '@register/problem';

/** ADR 0015: deeper JSON than this is refused (a draft nested 5,000 arrays deep once answered 500). */
export const MAX_JSON_DEPTH = 64;

// A NUL, or a UTF-16 surrogate that is not part of a pair (PostgreSQL refuses both: text 22021, jsonb 22P05/22P02).
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const BAD_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds a NUL or an unpaired surrogate. */
export function hasBadCharacter(value: string): boolean {
  return BAD_CHARACTER.test(value);
}

function problem(field: string, code: string, detail: string): FieldError {
  return { field, code, detail };
}

/** An object or array still to be looked into, with how it was reached (its path is built only for a finding). */
interface Frame {
  value: object;
  parent: Frame | null;
  key: string | number | null;
  depth: number;
}

/** `a.b[2].c`: the path of `key` under `frame` (or of the frame itself), as the validation errors name fields. */
function pathOf(frame: Frame | null, key: string | number | null = null): string {
  const keys: Array<string | number> = key === null ? [] : [key];
  for (let f = frame; f && f.key !== null; f = f.parent) keys.push(f.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i]!;
    path = typeof k === 'number' ? `${path}[${k}]` : path ? `${path}.${k}` : k;
  }
  return path;
}

/**
 * The first hostile thing in a parsed JSON value: a string or key with NUL or an unpaired surrogate, or
 * nesting deeper than `maxDepth`. Iterative, so a value nested thousands deep cannot overflow the stack. Only
 * objects and arrays are stacked, and a path is built only for what is refused: a 25 KB letter is looked
 * through on every save, and per-node paths, pairs and stack entries were most of what that walk allocated.
 */
export function findHostileJson(value: unknown, maxDepth = MAX_JSON_DEPTH): FieldError | null {
  if (typeof value === 'string')
    return hasBadCharacter(value)
      ? problem('', 'invalid_characters', 'Strings must not contain NUL or unpaired surrogates.')
      : null;
  if (value === null || typeof value !== 'object') return null;
  const stack: Frame[] = [{ value, parent: null, key: null, depth: 0 }];
  const visit = (child: unknown, frame: Frame, key: string | number): FieldError | null => {
    if (typeof child === 'string') {
      return hasBadCharacter(child)
        ? problem(pathOf(frame, key), 'invalid_characters', 'Strings must not contain NUL or unpaired surrogates.')
        : null;
    }
    if (child !== null && typeof child === 'object')
      stack.push({ value: child, parent: frame, key, depth: frame.depth + 1 });
    return null;
  };
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth >= maxDepth)
      return problem(pathOf(frame), 'too_deep', `JSON may be nested at most ${maxDepth} levels deep.`);
    const v = frame.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = visit(v[i], frame, i);
        if (found) return found;
      }
      continue;
    }
    const record = v as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (hasBadCharacter(key))
        return problem(pathOf(frame, key), 'invalid_characters', 'Keys must not contain NUL or unpaired surrogates.');
      const found = visit(record[key], frame, key);
      if (found) return found;
    }
  }
  return null;
}

/** Express middleware after the JSON body parser: a hostile body is a 400 before any handler sees it. */
export const refuseHostileJson: RequestHandler = (req, _res, next) => {
  if (req.body === undefined || typeof req.body !== 'object' || req.body === null) return next();
  const found = findHostileJson(req.body);
  next(found ? validationError([found], 'The request body is not acceptable.') : undefined);
};

function decodeOrNull(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The path's problem: a malformed percent-escape or a bad character, if any. */
function pathProblems(path: string): FieldError[] {
  const decodedPath = decodeOrNull(path);
  if (decodedPath === null) return [problem('path', 'malformed_escape', 'The path has a malformed percent-escape.')];
  if (hasBadCharacter(decodedPath))
    return [problem('path', 'invalid_characters', 'The path must not contain NUL or unpaired surrogates.')];
  return [];
}

/** The first query parameter that is malformed or carries a bad character, if any. */
function queryProblems(query: string): FieldError[] {
  for (const part of query.split('&')) {
    const decoded = decodeOrNull(part.replace(/\+/g, ' '));
    const name = (decoded ?? part).split('=')[0] ?? '';
    if (decoded === null)
      return [problem(name, 'malformed_escape', 'A query parameter has a malformed percent-escape.')];
    if (hasBadCharacter(decoded))
      return [problem(name, 'invalid_characters', 'Query parameters must not contain NUL or unpaired surrogates.')];
  }
  return [];
}

function headerProblems(headers: Record<string, string | string[] | undefined>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value ?? ''];
    if (values.some((v) => v.includes('\u0000')))
      errors.push(problem(name, 'invalid_characters', 'Header values must not contain NUL.'));
  }
  return errors;
}

/**
 * ADR 0015, before identity and routing: a malformed percent-escape, a NUL or an unpaired surrogate in
 * the path or the query, or a NUL in a header value, is a 400 (Express would throw a URIError, or the value
 * would reach PostgreSQL).
 */
export const refuseHostileUrl: RequestHandler = (req, _res, next) => {
  const url = req.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const errors: FieldError[] = [...pathProblems(path)];
  if (q !== -1) errors.push(...queryProblems(url.slice(q + 1)));
  errors.push(...headerProblems(req.headers));
  next(
    errors.length > 0
      ? validationError(errors.slice(0, 5), 'The request URL or headers are not acceptable.')
      : undefined,
  );
};

/** ADR 0015 and the spec's `int`: a 32-bit signed integer. */
export const INT32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;
