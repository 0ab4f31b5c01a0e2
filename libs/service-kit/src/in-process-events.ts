import type { EventBus, EventMessage, EventSubscription } from './event-bus';
import { subjectMatches } from './event-bus';

/** `NATS_URL=in-process`: the single-process mode's transport (ADR 0037). */
export const IN_PROCESS_EVENTS_URL = 'in-process';

export type DurableHandler = (message: EventMessage) => Promise<void>;

/**
 * The broker of the single-process mode: every service runs in one Node process and shares it.
 *
 * It keeps nothing, so it gives JetStream's guarantees another way: a publish resolves only after every
 * durable consumer whose filter matches has handled the event (its handler resolved, the ack), and it
 * rejects when one failed or is declared but not attached. The outbox relay deletes a row only after a
 * resolved publish, so until then the event waits in the producer's outbox table, which is durable. A
 * duplicate window by message id, like the stream's, drops a republished event; the consumers are
 * idempotent by event id besides.
 */
export class InProcessBroker {
  private readonly durables = new Map<string, { filter: string; handler: DurableHandler | null }>();
  private readonly subscribers = new Set<{ filter: string; onMessage: (message: EventMessage) => void }>();
  /** msgId → end of its duplicate window; insertion order is expiry order. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly duplicateWindowMs = 120_000,
    private readonly onSubscriberError: (err: unknown, subject: string) => void = () => undefined,
  ) {}

  async publish(subject: string, payload: string, msgId: string): Promise<void> {
    const now = Date.now();
    for (const [id, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return;
    const message = { subject, payload };
    for (const [name, durable] of this.durables) {
      if (!subjectMatches(durable.filter, subject)) continue;
      if (!durable.handler)
        throw new Error(`in-process consumer ${name} is not attached; the event stays in the outbox`);
      await durable.handler(message);
    }
    this.seen.set(msgId, now + this.duplicateWindowMs);
    for (const subscriber of [...this.subscribers]) {
      if (!subjectMatches(subscriber.filter, subject)) continue;
      queueMicrotask(() => {
        try {
          subscriber.onMessage(message);
        } catch (err) {
          this.onSubscriberError(err, subject);
        }
      });
    }
  }

  subscribe(filter: string, onMessage: (message: EventMessage) => void): () => void {
    const entry = { filter, onMessage };
    this.subscribers.add(entry);
    return () => this.subscribers.delete(entry);
  }

  /**
   * Attaches a durable consumer. Detaching keeps its declaration for the life of the process, so events
   * for it are refused (and stay in their outboxes) until it is attached again, as JetStream would keep them.
   */
  consume(durable: string, filter: string, handler: DurableHandler): () => void {
    const existing = this.durables.get(durable);
    if (existing?.handler) throw new Error(`in-process consumer ${durable} is already attached`);
    const entry: { filter: string; handler: DurableHandler | null } = { filter, handler };
    this.durables.set(durable, entry);
    return () => {
      entry.handler = null;
    };
  }
}

/** One broker per process: the services of the single-process mode find each other through it. */
export const processBroker = new InProcessBroker();

/** A service's handle on the process broker; closing it ends that service's subscriptions only. */
export class InProcessEvents implements EventBus {
  readonly transport = 'in-process' as const;
  private readonly owned = new Set<() => void>();
  private closed = false;

  constructor(
    readonly name: string,
    private readonly broker: InProcessBroker = processBroker,
  ) {}

  async publish(subject: string, payload: string, msgId: string): Promise<void> {
    if (this.closed) throw new Error(`event bus of ${this.name} is closed`);
    await this.broker.publish(subject, payload, msgId);
  }

  subscribe(subject: string, onMessage: (message: EventMessage) => void): EventSubscription {
    return this.own(this.broker.subscribe(subject, onMessage));
  }

  /** A durable consumer: the handler's promise is the ack; a rejection leaves the event with its producer. */
  consume(durable: string, subject: string, handler: DurableHandler): EventSubscription {
    return this.own(this.broker.consume(durable, subject, handler));
  }

  ready(): Promise<boolean> {
    return Promise.resolve(!this.closed);
  }

  close(): Promise<void> {
    this.closed = true;
    for (const off of this.owned) off();
    this.owned.clear();
    return Promise.resolve();
  }

  private own(off: () => void): EventSubscription {
    let active = true;
    const unsubscribe = () => {
      if (!active) return;
      active = false;
      this.owned.delete(unsubscribe);
      off();
    };
    this.owned.add(unsubscribe);
    return { unsubscribe };
  }
}
