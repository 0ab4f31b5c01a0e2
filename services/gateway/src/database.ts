import type { WithOutbox } from '@register/service-kit';
import type { IdempotencyRecordTable } from './idempotency/idempotency.table';

/** The gateway's own database: the kept answers of idempotent writes, plus the outbox (its denial audit events). */
export interface GatewayDb extends WithOutbox {
  idempotency_record: IdempotencyRecordTable;
}
