export interface IdempotencyRecordTable {
  caller_hash: string;
  method: string;
  path: string;
  idempotency_key: string;
  /** 'running' while the first request is in flight, 'done' once its response is kept. */
  state: 'running' | 'done';
  request_hash: string | null;
  status: number | null;
  content_type: string | null;
  location: string | null;
  body: Buffer | null;
  locked_until: Date;
  expires_at: Date;
}
