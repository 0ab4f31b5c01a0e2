/** The applications service as an upload sees it: may this owner's upload name this application? */
export interface ApplicationDirectory {
  /** True only for the owner's own application in `Concept` (ADR 0006, 0015). */
  uploadable(owner: string, applicationId: string): Promise<boolean>;
}
