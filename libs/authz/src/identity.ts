export const ROLES = ['drafter', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Practitioner {
  subject: string;
  /** null: a citizen signed in without a role claim (OIDC), who holds only `applications:own`. */
  role: Role | null;
}

export interface CaseHandler {
  medewerker: string;
  rollen: string[];
}

/** A caller as the gateway resolved it. Both parts may be present: capabilities are then the union. */
export interface Identity {
  practitioner: Practitioner | null;
  caseHandler: CaseHandler | null;
  /** The `X-Admin: true` seam used by the admin upload delete. */
  adminSeam: boolean;
}

/** A service calling another service's internal API (no end user behind it). */
export interface ServiceCaller {
  service: string;
}

export const IDENTIFIER_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export function isAuthenticated(identity: Identity | null): identity is Identity {
  return identity !== null && (identity.practitioner !== null || identity.caseHandler !== null);
}

/** The most an audit row's `role` holds: a case handler's roles are whatever its identity carried. */
export const MAX_AUDIT_ROLE_LENGTH = 200;

/**
 * The `role` written to audit rows: never the subject or employee id (no personal data). A citizen without a
 * role and a case handler without roles are `none`; a long list of roles is cut, so a denial is never refused for its
 * audit row.
 */
export function auditRole(identity: Identity | null): string {
  if (!identity) return 'system';
  if (identity.practitioner) return identity.practitioner.role ?? 'none';
  if (identity.caseHandler) {
    const roles = identity.caseHandler.rollen.join(',');
    if (roles === '') return 'none';
    return roles.length > MAX_AUDIT_ROLE_LENGTH ? `${roles.slice(0, MAX_AUDIT_ROLE_LENGTH - 1)}…` : roles;
  }
  return 'system';
}
