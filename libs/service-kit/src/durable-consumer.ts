import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { EventSubscription } from './event-bus';
import type { InProcessEvents } from './in-process-events';
import type { Logger } from './logger';
import { STREAM_NAME, ensureStream, type NatsEvents } from './nats';

/** What a handler did with one event: `handled` is acked; `malformed` is dropped (never redelivered). A throw asks for redelivery. */
export type ConsumeOutcome = 'handled' | 'malformed';

export interface DurableConsumerOptions {
  /** JetStream (a durable pull consumer), or the single-process mode's in-process bus. */
  events: Pick<NatsEvents, 'transport' | 'js' | 'jsm'> | Pick<InProcessEvents, 'transport' | 'consume'>;
  /** Durable consumer name; one per deployment (tests use their own so files do not share messages). */
  durable: string;
  /** Subject filter, e.g. `register.audit.>`. */
  filter: string;
  /** Must be idempotent (a redelivery repeats it). Only the subject and sequence are logged, never the payload. */
  handle: (subject: string, payload: unknown) => Promise<ConsumeOutcome>;
  logger: Logger;
  /** Redelivery delay after a failed handler. */
  retryDelayMs?: number;
  /** Pause before consuming again after the message iterator ended or failed. */
  restartDelayMs?: number;
}

/**
 * A durable consumer with explicit acks: the handler's work is done before the ack, so a crash, a NATS
 * restart or a redelivery loses nothing (and an idempotent handler doubles nothing). In the single-process
 * mode the bus awaits the handler before the producer's relay deletes its outbox row: resolving is the ack.
 */
export class DurableConsumer {
  private messages: ConsumerMessages | null = null;
  private attached: EventSubscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private consuming = false;

  constructor(private readonly options: DurableConsumerOptions) {}

  async start(): Promise<void> {
    const { events } = this.options;
    if (events.transport === 'in-process') {
      this.attached = events.consume(this.options.durable, this.options.filter, async ({ subject, payload }) => {
        await this.dispatch(subject, payload, null);
      });
      this.consuming = true;
      return;
    }
    await this.ensureConsumer(events.jsm);
    this.loop = this.run(events);
  }

  /** True while messages are being pulled (readiness). */
  isRunning(): boolean {
    return this.consuming && !this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.attached?.unsubscribe();
    await this.messages?.close().catch(() => undefined);
    await this.loop;
  }

  private async ensureConsumer(jsm: NatsEvents['jsm']): Promise<void> {
    await ensureStream(jsm);
    // Creating with an identical config is a no-op on the server, so every replica may call it.
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: this.options.durable,
      filter_subject: this.options.filter,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });
  }

  private async run(events: Pick<NatsEvents, 'js' | 'jsm'>): Promise<void> {
    const { logger, durable } = this.options;
    while (!this.stopped) {
      try {
        const consumer = await events.js.consumers.get(STREAM_NAME, durable);
        // Without abort the iterator waits forever for a deleted consumer; ending it lets us recreate it.
        this.messages = await consumer.consume({ max_messages: 100, abort_on_missing_resource: true });
        this.consuming = true;
        for await (const msg of this.messages) await this.handle(msg);
        if (!this.stopped) logger.warn({ durable }, 'consumer iterator ended; restarting');
      } catch (err) {
        logger.warn({ err, durable }, 'consumer failed; restarting');
      }
      this.consuming = false;
      this.messages = null;
      if (this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.restartDelayMs ?? 1000));
      // The consumer may have been lost with the server's state; recreate it before pulling again.
      await this.ensureConsumer(events.jsm).catch((err: unknown) => logger.warn({ err, durable }, 'consumer not (re)created yet'));
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    let outcome: ConsumeOutcome;
    try {
      outcome = await this.dispatch(msg.subject, msg.string(), msg.seq);
    } catch (err) {
      this.options.logger.warn({ err, seq: msg.seq, durable: this.options.durable }, 'event not handled; redelivery requested');
      msg.nak(this.options.retryDelayMs ?? 5000);
      return;
    }
    // No reason text on term: `+TERM <reason>` needs server 2.10.4; 2.9 would ignore it and keep it pending.
    if (outcome === 'malformed') msg.term();
    else msg.ack();
  }

  private async dispatch(subject: string, text: string, seq: number | null): Promise<ConsumeOutcome> {
    const outcome = await this.options.handle(subject, parse(text));
    // Only where it sits: the payload may carry personal data.
    if (outcome === 'malformed') this.options.logger.error({ subject, seq, durable: this.options.durable }, 'malformed event dropped');
    return outcome;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
