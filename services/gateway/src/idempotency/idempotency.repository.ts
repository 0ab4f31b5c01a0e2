import { sql, type Kysely } from 'kysely';
import type { GatewayDb } from '../database';
import type { IdempotencyRecordTable } from './idempotency.table';

export interface RecordKey {
  caller_hash: string;
  method: string;
  path: string;
  idempotency_key: string;
}

export type StoredRecord = Pick<
  IdempotencyRecordTable,
  'state' | 'request_hash' | 'status' | 'content_type' | 'location' | 'body'
>;

/**
 * Claims the key for a first request. Returns null when this request owns it now; otherwise the existing
 * record. A running claim whose lock expired (a crashed gateway) is taken over.
 */
export async function claim(
  db: Kysely<GatewayDb>,
  key: RecordKey,
  lockMs: number,
  ttlMs: number,
  at: Date,
): Promise<StoredRecord | null> {
  const now = at.getTime();
  const inserted = await db
    .insertInto('idempotency_record')
    .values({ ...key, state: 'running', locked_until: new Date(now + lockMs), expires_at: new Date(now + ttlMs) })
    .onConflict((oc) =>
      oc
        .columns(['caller_hash', 'method', 'path', 'idempotency_key'])
        .doUpdateSet({
          state: 'running',
          request_hash: null,
          status: null,
          body: null,
          locked_until: new Date(now + lockMs),
          expires_at: new Date(now + ttlMs),
        })
        .where((eb) =>
          eb.or([
            eb('idempotency_record.expires_at', '<', at),
            eb.and([eb('idempotency_record.state', '=', 'running'), eb('idempotency_record.locked_until', '<', at)]),
          ]),
        ),
    )
    .returning('state')
    .executeTakeFirst();
  if (inserted) return null;
  const existing = await db
    .selectFrom('idempotency_record')
    .select(['state', 'request_hash', 'status', 'content_type', 'location', 'body'])
    .where('caller_hash', '=', key.caller_hash)
    .where('method', '=', key.method)
    .where('path', '=', key.path)
    .where('idempotency_key', '=', key.idempotency_key)
    .executeTakeFirst();
  return (
    existing ?? { state: 'running', request_hash: null, status: null, content_type: null, location: null, body: null }
  );
}

export async function complete(
  db: Kysely<GatewayDb>,
  key: RecordKey,
  response: Omit<StoredRecord, 'state'>,
): Promise<void> {
  await db
    .updateTable('idempotency_record')
    .set({ ...response, state: 'done' })
    .where('caller_hash', '=', key.caller_hash)
    .where('method', '=', key.method)
    .where('path', '=', key.path)
    .where('idempotency_key', '=', key.idempotency_key)
    .execute();
}

/** A 5xx or a failed forward is not kept: the retry runs the operation again. */
export async function release(db: Kysely<GatewayDb>, key: RecordKey): Promise<void> {
  await db
    .deleteFrom('idempotency_record')
    .where('caller_hash', '=', key.caller_hash)
    .where('method', '=', key.method)
    .where('path', '=', key.path)
    .where('idempotency_key', '=', key.idempotency_key)
    .where('state', '=', 'running')
    .execute();
}

/** Deletes up to `limit` expired records; SKIP LOCKED passes over a record a request is claiming right now. */
export async function deleteExpired(db: Kysely<GatewayDb>, limit: number, at: Date): Promise<number> {
  const { numAffectedRows } = await sql`
    DELETE FROM idempotency_record WHERE ctid IN (
      SELECT ctid FROM idempotency_record WHERE expires_at < ${at} LIMIT ${limit} FOR UPDATE SKIP LOCKED)`.execute(db);
  return Number(numAffectedRows ?? 0n);
}
