/**
 * The port: a template's logo bytes, from the documents service; null when they cannot be had (the letter goes
 * without).
 */
export interface LogoSource {
  logoBytes(documentId: string): Promise<Buffer | null>;
}
