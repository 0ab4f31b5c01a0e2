import { z } from 'zod';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** PostgreSQL refuses NUL and unpaired surrogates in text and jsonb (ADR 0050): refuse them as 400 first. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

const CLEAN = { message: 'NUL characters and unpaired surrogates are not allowed.' };

/** A string of at most `max` characters without NUL or unpaired surrogates (ADR 0015). */
export const cleanString = (max: number) => z.string().max(max).refine(isCleanText, CLEAN);

/** ADR 0003: every character but the last 3 becomes `*` (`900000001` becomes `******001`). */
export function mask(value: string | null): string | null {
  if (value === null) return null;
  return '*'.repeat(Math.max(0, value.length - 3)) + value.slice(-3);
}

/** RFC 3339 UTC with milliseconds, or null. */
export function timestamp(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
