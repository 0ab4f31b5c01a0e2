export interface ChangeRequestsTable {
  id: string;
  referentie: string;
  owner: string;
  /** The normalised number (decisions §7); never logged, never on the bus. */
  telefoon: string;
  created_at: Date;
}
