/** A document linked to a case, as the case handler's view lists it. */
export interface CaseDocument {
  documentId: string;
  categoryId: string;
  fileName: string;
}

/** The documents service lists the documents linked to an application. */
export interface CaseDocumentsPort {
  documentsOf(applicationId: string): Promise<CaseDocument[]>;
}
