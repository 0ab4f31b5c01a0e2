import { sql, type ColumnType, type Generated, type Kysely, type Transaction } from 'kysely';
import type pg from 'pg';
import type { EventPublisher } from './event-bus';
import { newEvent, type EventEnvelope } from './events';
import type { Logger } from './logger';

/** Table every service keeps (created by its own frozen migration). */
export interface OutboxTable {
  id: string;
  subject: string;
  envelope: ColumnType<EventEnvelope, string, string>;
  created_at: Generated<Date>;
  attempts: Generated<number>;
}
export interface WithOutbox {
  outbox: OutboxTable;
}

export const OUTBOX_CHANNEL = 'outbox';

/** Writes an event in the caller's transaction; it is published only if that transaction commits. */
export async function enqueueEvent<DB extends WithOutbox, T extends Record<string, unknown>>(
  trx: Transaction<DB> | Kysely<DB>,
  subject: string,
  type: string,
  data: T,
  correlationId: string | null,
): Promise<EventEnvelope<T>> {
  const envelope = newEvent(type, data, correlationId);
  const db = trx as unknown as Kysely<WithOutbox>;
  await db.insertInto('outbox').values({ id: envelope.id, subject, envelope: JSON.stringify(envelope) }).execute();
  // NOTIFY is delivered on commit only; the relay also polls, so a lost notification only delays.
  await sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
  return envelope;
}

export interface OutboxRelayOptions<DB extends WithOutbox = WithOutbox> {
  db: Kysely<DB>;
  pool: pg.Pool;
  /** The transport: JetStream, or the in-process bus of the single-process mode. */
  bus: EventPublisher;
  logger: Logger;
  pollIntervalMs?: number;
  batchSize?: number;
  /**
   * How long a notification waits before the relay drains (default 5 ms), so that events committed close
   * together go out in one relay transaction instead of one each.
   */
  coalesceMs?: number;
}

/**
 * Publishes committed outbox rows to the event bus (JetStream) with `Nats-Msg-Id` = event id, then deletes them.
 * Rows are claimed with FOR UPDATE SKIP LOCKED so several relays (replicas) never publish the same row
 * at once; a crash between publish and delete re-publishes, which the stream's dedupe window and the
 * idempotent consumers absorb.
 */
export class OutboxRelay {
  private listener: pg.PoolClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerDue: number | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  private readonly options: OutboxRelayOptions;

  constructor(options: OutboxRelayOptions<WithOutbox> | OutboxRelayOptions<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any
    this.options = options as OutboxRelayOptions;
  }

  async start(): Promise<void> {
    await this.listen();
    this.schedule(0);
  }

  private async listen(): Promise<void> {
    try {
      const client = await this.options.pool.connect();
      client.on('notification', () => this.notified());
      client.on('error', (err) => {
        if (this.listener !== client) return;
        this.options.logger.warn({ err }, 'outbox listener lost; polling until it is back');
        this.listener = null;
        client.release(true);
        if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
      });
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.options.logger.warn({ err }, 'outbox listener failed to start; polling');
      if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private schedule(delayMs: number, onlyIfSooner = false): void {
    if (this.stopped) return;
    if (onlyIfSooner && this.timerDue !== null && this.timerDue <= Date.now() + delayMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = null;
      this.kick();
    }, delayMs);
    this.timer.unref();
  }

  private notified(): void {
    if (this.stopped || this.running) {
      this.kick();
      return;
    }
    this.schedule(this.options.coalesceMs ?? 5, true);
  }

  /** Runs a drain now (or right after the current one). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.options.logger.warn({ err }, 'outbox relay pass failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        } else {
          this.schedule(this.options.pollIntervalMs ?? 1000);
        }
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const published = await this.publishBatch();
      if (published < (this.options.batchSize ?? 100)) return;
    }
  }

  private async publishBatch(): Promise<number> {
    const { db, bus } = this.options;
    return db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('outbox')
        .select(['id', 'subject', 'envelope'])
        .orderBy('created_at')
        .limit(this.options.batchSize ?? 100)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return 0;
      const done: string[] = [];
      let failure: unknown = null;
      for (const row of rows) {
        try {
          await bus.publish(row.subject, JSON.stringify(row.envelope), row.id);
        } catch (err) {
          failure = err;
          break;
        }
        done.push(row.id);
      }
      if (done.length > 0) await trx.deleteFrom('outbox').where('id', 'in', done).execute();
      if (failure) {
        this.options.logger.warn({ err: failure, pending: rows.length - done.length }, 'outbox publish failed; will retry');
        return 0;
      }
      return rows.length;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
    await this.running;
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      // Detach first so a connection error after stop (a dropped database) is not handled twice.
      listener.removeAllListeners('notification');
      listener.removeAllListeners('error');
      listener.on('error', () => undefined);
      await listener.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
      listener.release(true);
    }
  }
}
