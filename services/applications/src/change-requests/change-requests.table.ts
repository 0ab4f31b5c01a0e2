export interface ChangeRequestsTable {
  id: string;
  referentie: string;
  owner: string;
  /** The normalised number (ADR 0007); never logged, never on the bus. */
  telefoon: string;
  created_at: Date;
}
