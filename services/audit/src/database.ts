import type { AuthzAuditTable } from './audit-log/audit-log.table';

/** The audit service's own database. It produces no events, so it keeps no outbox. */
export interface AuditDb {
  authz_audit: AuthzAuditTable;
}
