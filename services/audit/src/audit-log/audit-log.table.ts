export interface AuthzAuditTable {
  event_id: string;
  at: Date;
  action: string;
  resource: string;
  decision: string;
  role: string;
  correlation_id: string | null;
  /** The producing service, from the event's subject `register.audit.<service>`. */
  service: string;
}
