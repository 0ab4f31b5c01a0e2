import { sql, type ColumnType, type Generated, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import pg from 'pg';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import type { EventContract } from '@register/contracts';
import type { EventPublisher } from './event-bus';
import { newEvent, type EventEnvelope } from './events';
import { JobLoop, type Job } from './job-loop';
import { prepared } from './database';
import type { Logger } from './logger';
import { gaugeCallback, metricsOf } from './telemetry/metrics';
import { SpanKind, currentTraceparent, inSpan, traceContextOf } from './telemetry/trace-context';

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

/** The relay's wake-up as an expression of a statement that writes outbox rows (delivered on commit). */
export const relayNotification = sql`pg_notify(${OUTBOX_CHANNEL}, '')`;

/** Writes an event in the caller's transaction; it is published only if that transaction commits. */
export async function enqueueEvent<DB extends WithOutbox, T extends Record<string, unknown>>(
  trx: Transaction<DB> | Kysely<DB>,
  subject: string,
  type: string,
  data: T,
  correlationId: string | null,
): Promise<EventEnvelope<T>> {
  // The trace travels with the event: the relay puts it in the message headers, the consumer continues it.
  const envelope = envelopeOf(type, data, correlationId);
  const db = trx as unknown as Kysely<WithOutbox>;
  await db
    .insertInto('outbox')
    .values({ id: envelope.id, subject, envelope: JSON.stringify(envelope) })
    .execute();
  // NOTIFY is delivered on commit only; the relay also polls, so a lost notification only delays.
  await sql`SELECT ${relayNotification}`.execute(db);
  return envelope;
}

/**
 * Writes an event of a context's contract in the caller's transaction, validated against its zod schema first
 * (a producer cannot emit what its consumers would refuse); published only if that transaction commits.
 */
export async function enqueue<DB extends WithOutbox, C extends EventContract>(
  trx: Transaction<DB> | Kysely<DB>,
  contract: C,
  data: z.input<C['data']>,
  correlationId: string | null,
): Promise<EventEnvelope<z.output<C['data']>>> {
  const parsed = contract.data.parse(data) as z.output<C['data']>;
  return enqueueEvent(
    trx,
    contract.subject,
    contract.type,
    parsed as Record<string, unknown>,
    correlationId,
  ) as Promise<EventEnvelope<z.output<C['data']>>>;
}

/**
 * Writes several events of one contract in the caller's transaction with one statement (a list view's processing
 * records, one per listed practitioner); published only if that transaction commits.
 */
export async function enqueueMany<DB extends WithOutbox, C extends EventContract>(
  trx: Transaction<DB> | Kysely<DB>,
  contract: C,
  data: ReadonlyArray<z.input<C['data']>>,
  correlationId: string | null,
  alongWith: readonly NewOutboxRow[] = [],
): Promise<void> {
  await enqueueRows(trx, [...data.map((item) => eventRow(contract, item, correlationId)), ...alongWith]);
}

/** One event of a context's contract as an outbox row, validated against its zod schema first. */
export function eventRow<C extends EventContract>(
  contract: C,
  data: z.input<C['data']>,
  correlationId: string | null,
): NewOutboxRow {
  const parsed = contract.data.parse(data) as Record<string, unknown>;
  return { subject: contract.subject, envelope: envelopeOf(contract.type, parsed, correlationId) };
}

/** An event's envelope in the active trace (the relay puts the trace in the message headers). */
export function envelopeOf<T extends Record<string, unknown>>(
  type: string,
  data: T,
  correlationId: string | null,
): EventEnvelope<T> {
  const envelope = newEvent(type, data, correlationId);
  const traceparent = currentTraceparent();
  if (traceparent) envelope.traceparent = traceparent;
  return envelope;
}

/**
 * Writes events already enveloped (and validated) with one statement: outside a transaction (a read's records)
 * one round trip and one commit. An envelope the stream already took is dropped there by its id.
 */
export async function enqueueEnvelopes<DB extends WithOutbox>(
  trx: Transaction<DB> | Kysely<DB>,
  subject: string,
  envelopes: readonly EventEnvelope[],
): Promise<void> {
  await enqueueRows(
    trx,
    envelopes.map((envelope) => ({ subject, envelope })),
  );
}

/** One outbox row to be: an event and the subject it is published on. */
export interface NewOutboxRow {
  subject: string;
  envelope: EventEnvelope;
}

/** Writes the rows and the relay's notification in one statement, in the caller's transaction. */
export async function enqueueRows<DB extends WithOutbox>(
  trx: Transaction<DB> | Kysely<DB>,
  rows: readonly NewOutboxRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((r) => sql`(${r.envelope.id}::uuid, ${r.subject}, ${JSON.stringify(r.envelope)}::jsonb)`),
  );
  await sql`WITH written AS (INSERT INTO outbox (id, subject, envelope) VALUES ${values} RETURNING 1)
    SELECT ${relayNotification} FROM (SELECT count(*) FROM written) AS n`.execute(trx);
}

/** A row of `outboxRowsFrom`: the event, and the envelope's fields its source row fills in (`data.referentie`). */
export interface OutboxRowFrom extends NewOutboxRow {
  fill?: Readonly<Record<string, string>>;
}

/**
 * The rows as the part of a larger statement that writes them (`INSERT … SELECT … FROM <source>`): written only when
 * the common table `source` names has a row, so a statement that changed nothing writes no event, and with the
 * envelope's fields that only the statement knows (`fill`: a dotted path in the envelope → a column of the source)
 * put in from that row. The caller's statement notifies the relay (`relayNotification`).
 */
export function outboxRowsFrom(source: string, rows: readonly OutboxRowFrom[]): RawBuilder<unknown> {
  const selects = rows.map((r) => {
    let envelope = sql`${JSON.stringify(r.envelope)}::jsonb`;
    for (const [field, column] of Object.entries(r.fill ?? {}))
      envelope = sql`jsonb_set(${envelope}, ${`{${field.split('.').join(',')}}`}::text[], to_jsonb(${sql.ref(
        `${source}.${column}`,
      )}))`;
    return sql`SELECT ${r.envelope.id}::uuid, ${r.subject}, ${envelope} FROM ${sql.table(source)}`;
  });
  return sql`INSERT INTO outbox (id, subject, envelope) ${sql.join(selects, sql` UNION ALL `)}`;
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
 * idempotent consumers absorb. It runs on the kit's job loop; NOTIFY on commit wakes it, polling is the net.
 */
export class OutboxRelay implements Job {
  readonly name = 'outbox-relay';
  private listener: pg.Client | null = null;
  private stopped = false;
  private readonly loop: JobLoop;
  private readonly options: OutboxRelayOptions;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(options: OutboxRelayOptions<WithOutbox> | OutboxRelayOptions<any>) {
    this.options = options as OutboxRelayOptions;
    this.loop = new JobLoop({
      name: this.name,
      logger: this.options.logger,
      pass: () => this.publishBatch(),
      batchSize: this.options.batchSize ?? 100,
      intervalMs: this.options.pollIntervalMs ?? 1000,
      maxBackoffMs: 5000,
    });
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
    this.loop.start();
  }

  /** Runs a drain now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /**
   * LISTEN on a connection of its own, outside the pool: a pool client held for the service's lifetime would leave
   * requests one connection short, and with a small pool and a relay pass waiting on a NATS outage, none at all.
   */
  private async listen(): Promise<void> {
    const client = new pg.Client(this.options.pool.options);
    client.on('notification', () => this.loop.kickSoon(this.options.coalesceMs ?? 5));
    client.on('error', (err) => {
      if (this.listener !== client) return;
      this.options.logger.warn({ err }, 'outbox listener lost; polling until it is back');
      this.listener = null;
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listener = client;
    } catch (err) {
      this.options.logger.warn({ err }, 'outbox listener failed to start; polling');
      void client.end().catch(() => undefined);
      if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private async publishBatch(): Promise<number> {
    const { db, bus } = this.options;
    const outcome = await db.transaction().execute(async (trx) => {
      // Both prepared (ADR 0279): every pass of every service's relay runs them, each with one text.
      const { rows } = await sql<StoredRow>`${prepared}SELECT id, subject, envelope FROM outbox ORDER BY created_at
        LIMIT ${this.options.batchSize ?? 100} FOR UPDATE SKIP LOCKED`.execute(trx);
      const { done, failure } = await publishInOrder(bus, rows);
      if (done.length > 0) await sql`${prepared}DELETE FROM outbox WHERE id = ANY(${done}::uuid[])`.execute(trx);
      return { claimed: rows.length, pending: rows.length - done.length, failure };
    });
    // Thrown after the commit, so the rows published so far stay deleted; the loop backs off for the rest.
    if (outcome.failure)
      throw Object.assign(new Error(`outbox publish failed; ${outcome.pending} pending`), { cause: outcome.failure });
    return outcome.claimed;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    const listener = this.listener;
    this.listener = null;
    if (listener) {
      // Detach first so a connection error after stop (a dropped database) is not handled twice.
      listener.removeAllListeners('notification');
      listener.removeAllListeners('error');
      listener.on('error', () => undefined);
      await listener.end().catch(() => undefined);
    }
  }
}

type StoredRow = Pick<OutboxTable, 'id' | 'subject'> & { envelope: EventEnvelope };

/**
 * Publishes rows in their order: all at once on a transport that keeps the order of publishes in flight (one
 * NATS connection), else one after the other. Returns the ids of the leading rows the transport took; the rows
 * from the first refused one on stay for the next pass (those of them already taken are published again then,
 * and the stream's duplicate window drops them), so no event is ever published ahead of an earlier one's retry.
 */
async function publishInOrder(
  bus: EventPublisher,
  rows: readonly StoredRow[],
): Promise<{ done: string[]; failure: unknown }> {
  const publishOne = (row: StoredRow): Promise<void> => {
    const publish = () => bus.publish(row.subject, JSON.stringify(row.envelope), row.id);
    // Published in the trace the event was written in (the transport puts it in the message headers).
    return row.envelope.traceparent
      ? inSpan(`publish ${row.subject}`, SpanKind.PRODUCER, traceContextOf(row.envelope.traceparent), publish)
      : publish();
  };
  const done: string[] = [];
  if (bus.pipelined) {
    const outcomes = await Promise.allSettled(rows.map(publishOne));
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'rejected') return { done, failure: outcome.reason };
      done.push(rows[i]!.id);
    }
    return { done, failure: null };
  }
  for (const row of rows) {
    try {
      await publishOne(row);
    } catch (err) {
      return { done, failure: err };
    }
    done.push(row.id);
  }
  return { done, failure: null };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDatabase = { db: Kysely<any>; pool: pg.Pool };

/** The relay as a job of `runService` (every service with an outbox lists it). */
export function outboxRelay(
  _ctx: unknown,
  resources: { database: AnyDatabase; events: EventPublisher; logger: Logger },
): OutboxRelay {
  const registry = metricsOf(resources.logger)?.registry;
  if (registry) outboxMetrics(registry, resources.database.db as Kysely<WithOutbox>);
  return new OutboxRelay({
    db: resources.database.db,
    pool: resources.database.pool,
    bus: resources.events,
    logger: resources.logger.child({ subsystem: 'outbox' }),
  });
}

/** Events written but not yet published, and how long the oldest has waited: a relay that is stuck shows here. */
function outboxMetrics(registry: Registry, db: Kysely<WithOutbox>): void {
  const read = async () =>
    (
      await sql<{
        backlog: number;
        age: number | null;
      }>`SELECT count(*)::int AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS age
        FROM outbox`.execute(db)
    ).rows[0];
  gaugeCallback(registry, 'outbox_backlog', 'Outbox rows not yet published.', async () => (await read())?.backlog ?? 0);
  gaugeCallback(
    registry,
    'outbox_oldest_age_seconds',
    'Age of the oldest unpublished outbox row (0 when empty).',
    async () => (await read())?.age ?? 0,
  );
}
