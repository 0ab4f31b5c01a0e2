import type { AuthzAuditTable } from './audit-log/audit-log.table';
import type { LogbookTable } from './logbook/logbook.table';

/** The audit service's own database. It produces no events, so it keeps no outbox. */
export interface AuditDb {
  authz_audit: AuthzAuditTable;
  /** The processing log (ADR 0181): pseudonyms, never a BSN. */
  logbook: LogbookTable;
}
