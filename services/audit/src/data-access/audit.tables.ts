export interface AuthzAuditTable {
  event_id: string;
  at: Date;
  action: string;
  resource: string;
  decision: string;
  role: string;
  correlation_id: string | null;
  service: string;
}

export interface AuditDb {
  authz_audit: AuthzAuditTable;
}
