/** The applications service as an upload sees it: may this owner's upload name this application? */
export interface ApplicationDirectory {
  /** True only for the owner's own application in `Concept` (decisions §6, §15). */
  uploadable(owner: string, applicationId: string): Promise<boolean>;
}
