import { createHash } from 'node:crypto';
import type { Identity } from '@register/authz';
import { DomainError } from '@register/problem';

/** ADR 0013: the methods whose answers an Idempotency-Key keeps. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE']);
export const MAX_KEY_LENGTH = 255;
/** Longest target kept as written; a longer one is kept as its hash (the key's index has a row size limit). */
export const MAX_KEPT_TARGET = 512;

/**
 * The key a write carries, or null when the request is not one a key applies to (a read, or no header). A key
 * outside 1 to 255 characters is a 400 naming the header; a repeated header counts as its values joined.
 */
export function idempotencyKeyOf(method: string, header: string | string[] | undefined): string | null {
  if (!IDEMPOTENT_METHODS.has(method) || header === undefined) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.length >= 1 && value.length <= MAX_KEY_LENGTH) return value;
  const detail = `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`;
  throw new DomainError('validation', detail, [{ field: 'Idempotency-Key', code: 'too_long', detail }]);
}

/**
 * Scope of a key without keeping who the caller is: a hash of the whole identity. Subject and role, employee and
 * roles (as a set) and the admin seam: the same key from another role of one person is a request of its own.
 */
export function callerHash(identity: Identity | null): string {
  const parts = [
    identity?.practitioner?.subject ?? '',
    identity?.practitioner?.role ?? '',
    identity?.caseHandler?.medewerker ?? '',
    [...(identity?.caseHandler?.rollen ?? [])].sort(),
    identity?.adminSeam ?? false,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The request's target, path and query: every brief route picks its letter with `?referentie=`. */
export function targetOf(originalUrl: string): string {
  if (originalUrl.length <= MAX_KEPT_TARGET) return originalUrl;
  return `sha256:${createHash('sha256').update(originalUrl).digest('hex')}`;
}

/** What a stored record says of a repeat: still running (409), another body (422), or replay the kept answer. */
export function repeatOutcome(
  stored: { state: string; request_hash: string | null },
  requestHash: string,
): 'in-progress' | 'reused' | 'replay' {
  if (stored.state === 'running') return 'in-progress';
  return stored.request_hash === requestHash ? 'replay' : 'reused';
}

/** An answer is kept when it is not a server error and the whole request body was hashed; otherwise released. */
export function keepsAnswer(status: number, requestHash: string | undefined): requestHash is string {
  return status < 500 && requestHash !== undefined;
}
