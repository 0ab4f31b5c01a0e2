import type { Generated } from 'kysely';
import type { Json } from '../applications/applications.table';

export interface DocumentLinkRef {
  documentId: string;
  categoryId: string;
}

/** The promise to link a submitted application's digital documents, written by the submit statement. */
export interface DocumentLinkJobsTable {
  application_id: string;
  owner: string;
  documents: Json<DocumentLinkRef[]>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  created_at: Generated<Date>;
}
