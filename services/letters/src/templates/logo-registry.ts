/** The documents service's answer on an org logo (the port; the adapter calls its internal API). */
export interface LogoRegistry {
  /** True when the document is an upload in the `organisatie-logo` category. */
  isOrganisatieLogo(documentId: string): Promise<boolean>;
}
