import type { Generated } from 'kysely';

/** A notification the webhook accepted, by its content key (a redelivery is recognised, not audited twice). */
export interface ReceivedNotificationsTable {
  key: string;
  received_at: Generated<Date>;
}
