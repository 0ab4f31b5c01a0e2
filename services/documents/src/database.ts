import type { WithOutbox } from '@register/service-kit';
import type { DeletedApplicationTable } from './links/deleted-applications.table';
import type { DocumentTable } from './uploads/documents.table';

/** The documents service's own database: the documents (uploads) and the deleted cases (links), plus the outbox. */
export interface DocumentsDb extends WithOutbox {
  document: DocumentTable;
  deleted_application: DeletedApplicationTable;
}
