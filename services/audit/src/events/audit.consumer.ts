import type { Kysely } from 'kysely';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { STREAM_NAME, SUBJECTS, ensureStream, type EventSubscription, type InProcessEvents, type Logger, type NatsEvents } from '@register/service-kit';
import type { AuditDb } from '../data-access/audit.tables';
import { toAuditRow } from '../domain/audit-event';
import { recordAuditEvent } from '../domain/audit-trail';

export interface AuditConsumerOptions {
  /** JetStream (a durable pull consumer), or the single-process mode's in-process bus. */
  events: Pick<NatsEvents, 'transport' | 'js' | 'jsm'> | Pick<InProcessEvents, 'transport' | 'consume'>;
  db: Kysely<AuditDb>;
  logger: Logger;
  /** Durable consumer name; one per deployment (tests use their own so files do not share messages). */
  durable: string;
  /** Redelivery delay after a failed insert. */
  retryDelayMs?: number;
  /** Pause before consuming again after the message iterator ended or failed. */
  restartDelayMs?: number;
}

/**
 * Durable pull consumer of every audit event. A row is inserted (idempotently by event id) before the
 * ack, so a crash, a NATS restart or a redelivery loses nothing and doubles nothing.
 */
export class AuditConsumer {
  private messages: ConsumerMessages | null = null;
  private attached: EventSubscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private consuming = false;

  constructor(private readonly options: AuditConsumerOptions) {}

  async start(): Promise<void> {
    const { events } = this.options;
    if (events.transport === 'in-process') {
      // The bus awaits this handler before the producer's relay deletes its outbox row: resolving is the ack.
      this.attached = events.consume(this.options.durable, SUBJECTS.auditAll, async ({ subject, payload }) => {
        await this.store(subject, parse(payload), null);
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
      filter_subject: SUBJECTS.auditAll,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });
  }

  private async run(events: Pick<NatsEvents, 'js' | 'jsm'>): Promise<void> {
    const { logger } = this.options;
    while (!this.stopped) {
      try {
        const consumer = await events.js.consumers.get(STREAM_NAME, this.options.durable);
        // Without abort the iterator waits forever for a deleted consumer; ending it lets us recreate it.
        this.messages = await consumer.consume({ max_messages: 100, abort_on_missing_resource: true });
        this.consuming = true;
        for await (const msg of this.messages) await this.handle(msg);
        if (!this.stopped) logger.warn('audit consumer iterator ended; restarting');
      } catch (err) {
        logger.warn({ err }, 'audit consumer failed; restarting');
      }
      this.consuming = false;
      this.messages = null;
      if (this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.restartDelayMs ?? 1000));
      // The consumer may have been lost with the server's state; recreate it before pulling again.
      await this.ensureConsumer(events.jsm).catch((err: unknown) => logger.warn({ err }, 'audit consumer not (re)created yet'));
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    let outcome: 'stored' | 'malformed';
    try {
      outcome = await this.store(msg.subject, parse(msg.string()), msg.seq);
    } catch (err) {
      this.options.logger.warn({ err, seq: msg.seq }, 'audit row not stored; redelivery requested');
      msg.nak(this.options.retryDelayMs ?? 5000);
      return;
    }
    // No reason text on term: `+TERM <reason>` needs server 2.10.4; 2.9 would ignore it and keep it pending.
    if (outcome === 'malformed') msg.term();
    else msg.ack();
  }

  /** Stores one event (idempotent by event id); a malformed one is logged and dropped. Throws when not stored. */
  private async store(subject: string, payload: unknown, seq: number | null): Promise<'stored' | 'malformed'> {
    const row = toAuditRow(subject, payload);
    if (!row) {
      // Only where it sits: the payload may carry personal data.
      this.options.logger.error({ subject, seq }, 'malformed audit event dropped');
      return 'malformed';
    }
    await recordAuditEvent(this.options.db, row);
    return 'stored';
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
