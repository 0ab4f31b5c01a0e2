import type { Kysely, Transaction } from 'kysely';
import type { WithOutbox } from '@register/service-kit';
import type { ApplicationsTable } from './applications/applications.table';
import type { CaseMirrorHealsTable } from './case-mirror/case-mirror-heals.table';
import type { CaseMirrorStepsTable, CaseMirrorsTable } from './case-mirror/case-mirror.table';
import type { ChangeRequestsTable } from './change-requests/change-requests.table';
import type { DocumentLinkJobsTable } from './document-linking/link-jobs.table';
import type { ReceivedNotificationsTable } from './notifications/notifications.table';
import type {
  DemoAddressesTable,
  DemoDiplomasTable,
  DemoNotesTable,
  DemoRegistrationsTable,
} from './registration/demo-registry.table';

/** The applications service's own database: the features' tables, plus the outbox. */
export interface AppDatabase extends WithOutbox {
  applications: ApplicationsTable;
  document_link_jobs: DocumentLinkJobsTable;
  change_requests: ChangeRequestsTable;
  case_mirrors: CaseMirrorsTable;
  case_mirror_steps: CaseMirrorStepsTable;
  case_mirror_heals: CaseMirrorHealsTable;
  received_notifications: ReceivedNotificationsTable;
  demo_registrations: DemoRegistrationsTable;
  demo_addresses: DemoAddressesTable;
  demo_notes: DemoNotesTable;
  demo_diplomas: DemoDiplomasTable;
}

/** What a repository function takes: the database, or the transaction its use case opened. */
export type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;
