import { IDENTIFIER_PATTERN, ROLES, type Identity, type Role } from '@register/authz';

/** The token claims that carry the identity (ADR 0001: `bsn`, `role`, `medewerker`, `rollen` unless renamed). */
export interface ClaimNames {
  subject: string;
  role: string;
  employee: string;
  roles: string;
}

export const DEFAULT_CLAIM_NAMES: ClaimNames = {
  subject: 'bsn',
  role: 'role',
  employee: 'medewerker',
  roles: 'rollen',
};

function identifier(value: unknown): string | null {
  return typeof value === 'string' && IDENTIFIER_PATTERN.test(value) ? value : null;
}

/**
 * ADR 0001: a token without a (known) role claim is a citizen with no role; the fall-back to `drafter`
 * belongs to the header stand-in alone.
 */
function toRole(value: unknown): Role | null {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}

/** An array of strings or one comma-separated string, as `X-Rollen` is read: trimmed, lower-cased, no blanks. */
function toRollen(value: unknown): string[] {
  const parts = Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? value.split(',')
      : [];
  return parts.map((r) => r.trim().toLowerCase()).filter((r) => r !== '');
}

/**
 * The identity a verified token names, as the header stand-in would build it from the same values except the role
 * (no role claim: no role); null when it names neither a practitioner nor a case handler. The admin seam (`X-Admin`) is
 * a header: a token has none.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
  names: ClaimNames = DEFAULT_CLAIM_NAMES,
): Identity | null {
  const subject = identifier(claims[names.subject]);
  const medewerker = identifier(claims[names.employee]);
  if (!subject && !medewerker) return null;
  return {
    practitioner: subject ? { subject, role: toRole(claims[names.role]) } : null,
    caseHandler: medewerker ? { medewerker, rollen: toRollen(claims[names.roles]) } : null,
    adminSeam: false,
  };
}
