/** A document's bytes as the documents service stores them, with what the information object says of them. */
export interface DocumentContent {
  bytes: Buffer;
  /** The detected media type: the information object's `formaat`. */
  contentType: string;
  fileName: string;
}

/**
 * The documents service gives the mirror a linked document's bytes: null when the document is not (or not
 * yet) linked to that application there; a service that cannot answer now throws (the case is postponed).
 */
export interface DocumentContentPort {
  contentOf(applicationId: string, documentId: string): Promise<DocumentContent | null>;
}
