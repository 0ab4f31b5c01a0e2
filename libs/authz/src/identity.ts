export const ROLES = ['drafter', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface Practitioner {
  subject: string;
  role: Role;
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

/** The `role` written to audit rows: never the subject or employee id (no personal data). */
export function auditRole(identity: Identity | null): string {
  if (!identity) return 'system';
  if (identity.practitioner) return identity.practitioner.role;
  if (identity.caseHandler) return identity.caseHandler.rollen.join(',');
  return 'system';
}
