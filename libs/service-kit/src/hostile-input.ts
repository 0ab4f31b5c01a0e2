import type { RequestHandler } from 'express';
import { validationError, type FieldError } from '@register/problem';

/** decisions §15: deeper JSON than this is refused (a draft nested 5,000 arrays deep once answered 500). */
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

/**
 * The first hostile thing in a parsed JSON value: a string or key with NUL or an unpaired surrogate, or
 * nesting deeper than `maxDepth`. Iterative, so a value nested thousands deep cannot overflow the stack.
 */
export function findHostileJson(value: unknown, maxDepth = MAX_JSON_DEPTH): FieldError | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      if (hasBadCharacter(v)) return problem(item.path, 'invalid_characters', 'Strings must not contain NUL or unpaired surrogates.');
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (item.depth >= maxDepth) return problem(item.path, 'too_deep', `JSON may be nested at most ${maxDepth} levels deep.`);
    if (Array.isArray(v)) {
      v.forEach((child, i) => stack.push({ value: child, path: `${item.path}[${i}]`, depth: item.depth + 1 }));
      continue;
    }
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (hasBadCharacter(key)) return problem(path, 'invalid_characters', 'Keys must not contain NUL or unpaired surrogates.');
      stack.push({ value: child, path, depth: item.depth + 1 });
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

/**
 * decisions §15, before identity and routing: a malformed percent-escape, a NUL or an unpaired surrogate in
 * the path or the query, or a NUL in a header value, is a 400 (Express would throw a URIError, or the value
 * would reach PostgreSQL).
 */
export const refuseHostileUrl: RequestHandler = (req, _res, next) => {
  const url = req.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const errors: FieldError[] = [];
  const decodedPath = decodeOrNull(path);
  if (decodedPath === null) errors.push(problem('path', 'malformed_escape', 'The path has a malformed percent-escape.'));
  else if (hasBadCharacter(decodedPath)) errors.push(problem('path', 'invalid_characters', 'The path must not contain NUL or unpaired surrogates.'));
  if (q !== -1) {
    for (const part of url.slice(q + 1).split('&')) {
      const decoded = decodeOrNull(part.replace(/\+/g, ' '));
      const name = (decoded ?? part).split('=')[0] ?? '';
      if (decoded === null) errors.push(problem(name, 'malformed_escape', 'A query parameter has a malformed percent-escape.'));
      else if (hasBadCharacter(decoded)) errors.push(problem(name, 'invalid_characters', 'Query parameters must not contain NUL or unpaired surrogates.'));
      if (errors.length > 0) break;
    }
  }
  for (const [name, value] of Object.entries(req.headers)) {
    const values = Array.isArray(value) ? value : [value ?? ''];
    if (values.some((v) => v.includes('\u0000'))) errors.push(problem(name, 'invalid_characters', 'Header values must not contain NUL.'));
  }
  next(errors.length > 0 ? validationError(errors.slice(0, 5), 'The request URL or headers are not acceptable.') : undefined);
};

/** decisions §15 and the spec's `int`: a 32-bit signed integer. */
export const INT32 = { min: -2_147_483_648, max: 2_147_483_647 } as const;
