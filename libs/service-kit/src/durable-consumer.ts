import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { Counter, type Registry } from 'prom-client';
import { acceptCorrelationId, runWithContext } from './context';
import type { EventSubscription } from './event-bus';
import type { InProcessEvents } from './in-process-events';
import type { Logger } from './logger';
import { ensureStream, type NatsEvents } from './nats';
import { gaugeCallback, metricsOf } from './telemetry/metrics';
import { SpanKind, inSpan, traceContextOf } from './telemetry/trace-context';

/**
 * What a handler did with one event: `handled` is acked; `malformed` is dropped (never redelivered). A throw asks
 * for redelivery.
 */
export type ConsumeOutcome = 'handled' | 'malformed';

export interface DurableConsumerOptions {
  /** JetStream (a durable pull consumer), or the single-process mode's in-process bus. */
  events:
    Pick<NatsEvents, 'transport' | 'js' | 'jsm' | 'stream' | 'prefix'> | Pick<InProcessEvents, 'transport' | 'consume'>;
  /** Durable consumer name; one per deployment (tests use their own so files do not share messages). */
  durable: string;
  /** Subject filter, e.g. `register.audit.>`. */
  filter: string;
  /** Must be idempotent (a redelivery repeats it). Only the subject and sequence are logged, never the payload. */
  handle: (subject: string, payload: unknown) => Promise<ConsumeOutcome>;
  /**
   * Handles the events that arrived together in one go (one statement for many rows), an outcome for each in
   * order; `handle` stays the way for one event and for a batch that threw (each of its events is then handled
   * alone, so one that keeps failing is retried and dead-lettered on its own). Must be idempotent like `handle`.
   */
  handleBatch?: (events: ReadonlyArray<{ subject: string; payload: unknown }>) => Promise<ConsumeOutcome[]>;
  logger: Logger;
  /** First redelivery delay after a failed handler; it doubles per delivery up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  /** Longest redelivery delay (default 5 minutes). */
  maxRetryDelayMs?: number;
  /**
   * Deliveries before a message that keeps failing goes to the dead-letter subject (default 20: with the
   * back-off about an hour, so an outage of a dependency shorter than that loses nothing and needs no replay).
   */
  maxDeliver?: number;
  /** Pause before consuming again after the message iterator ended or failed. */
  restartDelayMs?: number;
  /**
   * With `handleBatch`: how long the first message of a batch waits for others to join it (0: a turn of the event
   * loop). Events that come one by one at a steady rate then share one handler call instead of one each.
   */
  batchWindowMs?: number;
}

/**
 * A durable consumer with explicit acks: the handler's work is done before the ack, so a crash, a NATS
 * restart or a redelivery loses nothing (and an idempotent handler doubles nothing). In the single-process
 * mode the bus awaits the handler before the producer's relay deletes its outbox row: resolving is the ack.
 */
/** How long a stop waits for the pull to end before leaving it to the connection's close. */
const STOP_WAIT_MS = 5000;
/** The most events a batch handler gets at once (the pull's own buffer is as large). */
const MAX_BATCH = 100;

export class DurableConsumer {
  private messages: ConsumerMessages | null = null;
  private attached: EventSubscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private consuming = false;
  /** Messages this consumer gave up on since it started (also in each dead-letter log line). */
  deadLetters = 0;

  private readonly counters: ReturnType<typeof consumerCounters>;

  constructor(private readonly options: DurableConsumerOptions) {
    this.counters = consumerCounters(options);
  }

  async start(): Promise<void> {
    const { events } = this.options;
    if (events.transport === 'in-process') {
      this.attached = events.consume(this.options.durable, this.options.filter, async ({ subject, payload }) => {
        await this.dispatch(subject, payload, null, undefined);
      });
      this.consuming = true;
      return;
    }
    await this.ensureConsumer(events);
    const registry = metricsOf(this.options.logger)?.registry;
    // Lag: what the stream holds for this consumer that it has not acknowledged yet (pending and in flight).
    if (registry)
      lagReaders(registry).set(this.options.durable, async () => {
        const info = await events.jsm.consumers.info(events.stream, this.options.durable);
        return info.num_pending + info.num_ack_pending;
      });
    this.loop = this.run(events);
  }

  /** True while messages are being pulled (readiness). */
  isRunning(): boolean {
    return this.consuming && !this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.attached?.unsubscribe();
    // The pull may be between set-up steps (nothing to close yet) or waiting on the server; the handler under way
    // finishes, but the shutdown does not wait on NATS for ever: closing the connection (the next step) ends it.
    const ended = Promise.all([this.messages?.close().catch(() => undefined), this.loop]).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_WAIT_MS)));
    const stopped = await Promise.race([ended, late]);
    clearTimeout(timer);
    if (!stopped)
      this.options.logger.warn(
        { durable: this.options.durable, waitedMs: STOP_WAIT_MS },
        'consumer still pulling at stop; the connection close ends it',
      );
  }

  private async ensureConsumer(events: Pick<NatsEvents, 'jsm' | 'stream' | 'prefix'>): Promise<void> {
    const { jsm, stream, prefix } = events;
    await ensureStream(jsm, { name: stream, prefix });
    // Creating with an identical config is a no-op on the server, so every replica may call it.
    await jsm.consumers.add(stream, {
      durable_name: this.options.durable,
      filter_subject: prefix + this.options.filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });
  }

  private async run(events: Pick<NatsEvents, 'js' | 'jsm' | 'stream' | 'prefix'>): Promise<void> {
    const { logger, durable } = this.options;
    while (!this.stopped) {
      try {
        const consumer = await events.js.consumers.get(events.stream, durable);
        // Without abort the iterator waits forever for a deleted consumer; ending it lets us recreate it.
        this.messages = await consumer.consume({ max_messages: 100, abort_on_missing_resource: true });
        // A stop that came while the pull was being set up found nothing to close: close it here, or the
        // iterator waits for messages forever and the service's shutdown with it.
        if (this.stopped) {
          await this.messages.close().catch(() => undefined);
          break;
        }
        this.consuming = true;
        if (this.options.handleBatch) await this.consumeInBatches(this.messages, events);
        else for await (const msg of this.messages) await this.handle(msg, events);
        if (!this.stopped) logger.warn({ durable }, 'consumer iterator ended; restarting');
      } catch (err) {
        logger.warn({ err, durable }, 'consumer failed; restarting');
      }
      this.consuming = false;
      this.messages = null;
      if (this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.restartDelayMs ?? 1000));
      // The consumer may have been lost with the server's state; recreate it before pulling again.
      await this.ensureConsumer(events).catch((err: unknown) =>
        logger.warn({ err, durable }, 'consumer not (re)created yet'),
      );
    }
  }

  /**
   * Takes messages as they arrive and handles what has gathered meanwhile as one batch: the iterator hands over
   * every message it already holds before the batch starts (a turn of the event loop), and no more than
   * MAX_BATCH wait while one is handled.
   */
  private async consumeInBatches(messages: ConsumerMessages, events: Pick<NatsEvents, 'js' | 'prefix'>): Promise<void> {
    const waiting: JsMsg[] = [];
    let draining: Promise<void> | null = null;
    const window = this.options.batchWindowMs ?? 0;
    const drain = async () => {
      await new Promise((resolve) => (window > 0 ? setTimeout(resolve, window) : setImmediate(resolve)));
      while (waiting.length > 0) await this.handleMany(waiting.splice(0, MAX_BATCH), events);
      draining = null;
    };
    try {
      for await (const msg of messages) {
        waiting.push(msg);
        draining ??= drain();
        if (waiting.length >= MAX_BATCH) await draining;
      }
    } finally {
      await draining;
    }
  }

  private async handleMany(batch: JsMsg[], events: Pick<NatsEvents, 'js' | 'prefix'>): Promise<void> {
    const { durable, logger } = this.options;
    if (batch.length === 1) return this.handle(batch[0]!, events);
    const items = batch.map((msg) => ({
      subject: msg.subject.slice(events.prefix.length),
      payload: parse(msg.string()),
    }));
    let outcomes: ConsumeOutcome[];
    try {
      outcomes = await this.options.handleBatch!(items);
    } catch (err) {
      logger.warn({ err, durable, events: batch.length }, 'batch not handled; each event on its own');
      for (const msg of batch) await this.handle(msg, events);
      return;
    }
    for (const [i, msg] of batch.entries()) {
      if (msg.info.deliveryCount > 1) this.counters?.redeliveries.inc({ durable });
      if (outcomes[i] === 'malformed') {
        logger.error({ subject: items[i]!.subject, seq: msg.seq, durable }, 'malformed event dropped');
        msg.term();
      } else msg.ack();
    }
    logger.info({ durable, events: batch.length, firstSeq: batch[0]!.seq }, 'events handled');
  }

  private async handle(msg: JsMsg, events: Pick<NatsEvents, 'js' | 'prefix'>): Promise<void> {
    let outcome: ConsumeOutcome;
    // Handlers see subjects as the contracts name them, without the deployment's prefix.
    const subject = msg.subject.slice(events.prefix.length);
    const deliveries = msg.info.deliveryCount;
    if (deliveries > 1) this.counters?.redeliveries.inc({ durable: this.options.durable });
    try {
      outcome = await this.dispatch(subject, msg.string(), msg.seq, msg.headers?.get('traceparent') || undefined);
    } catch (err) {
      const { durable, logger } = this.options;
      if (deliveries >= (this.options.maxDeliver ?? 20)) {
        try {
          await deadLetter(events, durable, subject, msg, err);
          this.deadLetters += 1;
          this.counters?.deadLetters.inc({ durable });
          logger.error(
            { err, seq: msg.seq, subject, durable, deliveries, deadLetters: this.deadLetters },
            'event moved to the dead-letter subject after repeated failures',
          );
          msg.term();
        } catch (dlErr) {
          logger.warn({ err: dlErr, seq: msg.seq, durable }, 'dead-letter publish failed; redelivery requested');
          msg.nak(this.options.maxRetryDelayMs ?? 300_000);
        }
        return;
      }
      const delay = Math.min(
        (this.options.retryDelayMs ?? 1000) * 2 ** Math.min(deliveries - 1, 20),
        this.options.maxRetryDelayMs ?? 300_000,
      );
      logger.warn(
        { err, seq: msg.seq, durable, deliveries, retryInMs: delay },
        'event not handled; redelivery requested',
      );
      msg.nak(delay);
      return;
    }
    // No reason text on term: `+TERM <reason>` needs server 2.10.4; 2.9 would ignore it and keep it pending.
    if (outcome === 'malformed') msg.term();
    else msg.ack();
  }

  /**
   * Handles one event in the trace and under the correlation id of the request that wrote it (the message's
   * `traceparent` header, else the envelope's), so its log lines and audit rows tie back to that request.
   */
  private async dispatch(
    subject: string,
    text: string,
    seq: number | null,
    traceparent: string | undefined,
  ): Promise<ConsumeOutcome> {
    const payload = parse(text);
    const envelope = (typeof payload === 'object' && payload !== null ? payload : {}) as {
      correlationId?: unknown;
      traceparent?: unknown;
    };
    const { durable, logger } = this.options;
    const correlationId = acceptCorrelationId(envelope.correlationId);
    return runWithContext({ correlationId }, () =>
      inSpan(`process ${subject}`, SpanKind.CONSUMER, traceContextOf(traceparent ?? envelope.traceparent), async () => {
        const outcome = await this.options.handle(subject, payload);
        // Only where it sits: the payload may carry personal data.
        if (outcome === 'malformed') logger.error({ subject, seq, durable }, 'malformed event dropped');
        else logger.info({ subject, seq, durable }, 'event handled');
        return outcome;
      }),
    );
  }
}

/** Where a consumer puts what it gave up on: `register.dead-letter.<durable>`, in the same stream. */
export const DEAD_LETTER_PREFIX = 'register.dead-letter';

/**
 * A dead letter: the original event as it was, and why and when it was given up; `tools/dead-letters` lists and
 * replays them.
 */
export interface DeadLetter {
  durable: string;
  subject: string;
  streamSeq: number;
  deliveries: number;
  failedAt: string;
  /** The handler's error message (no payload: the payload is `event`). */
  error: string;
  event: string;
}

async function deadLetter(
  events: Pick<NatsEvents, 'js' | 'prefix'>,
  durable: string,
  subject: string,
  msg: JsMsg,
  err: unknown,
): Promise<void> {
  const letter: DeadLetter = {
    durable,
    subject,
    streamSeq: msg.seq,
    deliveries: msg.info.deliveryCount,
    failedAt: new Date().toISOString(),
    error: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500),
    event: msg.string(),
  };
  await events.js.publish(`${events.prefix}${DEAD_LETTER_PREFIX}.${durable}`, JSON.stringify(letter), {
    msgID: `dead-letter-${durable}-${msg.seq}`,
    timeout: 5000,
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Redeliveries and dead letters by durable, on the service's metrics (one counter each, shared by its consumers). */
function consumerCounters(
  options: DurableConsumerOptions,
): { redeliveries: Counter<'durable'>; deadLetters: Counter<'durable'> } | null {
  const registry = metricsOf(options.logger)?.registry;
  if (!registry) return null;
  const counter = (name: string, help: string) =>
    (registry.getSingleMetric(name) as Counter<'durable'> | undefined) ??
    new Counter({ name, help, labelNames: ['durable'] as const, registers: [registry] });
  return {
    redeliveries: counter(
      'event_consumer_redeliveries_total',
      'Events delivered again after a failed or unacknowledged delivery.',
    ),
    deadLetters: counter(
      'event_consumer_dead_letters_total',
      'Events given up on and moved to the dead-letter subject.',
    ),
  };
}

const lagGauges = new WeakMap<Registry, Map<string, () => Promise<number>>>();

/** The lag readers of a service's consumers, read by one gauge labelled by durable. */
function lagReaders(registry: Registry): Map<string, () => Promise<number>> {
  let readers = lagGauges.get(registry);
  if (!readers) {
    const all = (readers = new Map<string, () => Promise<number>>());
    lagGauges.set(registry, all);
    gaugeCallback(
      registry,
      'event_consumer_lag',
      'Events not yet handled by a durable consumer (pending and unacknowledged).',
      async () => {
        const entries = await Promise.all(
          [...all].map(async ([durable, read]) => [durable, await read().catch(() => null)] as const),
        );
        return Object.fromEntries(entries.filter((e): e is readonly [string, number] => e[1] !== null));
      },
      'durable',
    );
  }
  return readers;
}
