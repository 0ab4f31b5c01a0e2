import type { Kysely } from 'kysely';
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { STREAM_NAME, SUBJECTS, ensureStream, type Events, type Logger } from '@register/service-kit';
import type { AuditDb } from '../data-access/audit.tables';
import { toAuditRow } from '../domain/audit-event';
import { recordAuditEvent } from '../domain/audit-trail';

export interface AuditConsumerOptions {
  events: Pick<Events, 'js' | 'jsm'>;
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
  private loop: Promise<void> | null = null;
  private stopped = false;
  private consuming = false;

  constructor(private readonly options: AuditConsumerOptions) {}

  async start(): Promise<void> {
    await this.ensureConsumer();
    this.loop = this.run();
  }

  /** True while messages are being pulled (readiness). */
  isRunning(): boolean {
    return this.consuming && !this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
    await this.loop;
  }

  private async ensureConsumer(): Promise<void> {
    const { jsm } = this.options.events;
    await ensureStream(jsm);
    // Creating with an identical config is a no-op on the server, so every replica may call it.
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: this.options.durable,
      filter_subject: SUBJECTS.auditAll,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
    });
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    while (!this.stopped) {
      try {
        const consumer = await this.options.events.js.consumers.get(STREAM_NAME, this.options.durable);
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
      await this.ensureConsumer().catch((err: unknown) => logger.warn({ err }, 'audit consumer not (re)created yet'));
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    let payload: unknown;
    try {
      payload = msg.json();
    } catch {
      payload = undefined;
    }
    const row = toAuditRow(msg.subject, payload);
    if (!row) {
      // Only where it sits: the payload may carry personal data.
      this.options.logger.error({ subject: msg.subject, seq: msg.seq }, 'malformed audit event dropped');
      // No reason text: `+TERM <reason>` needs server 2.10.4; 2.9 would ignore it and keep it pending.
      msg.term();
      return;
    }
    try {
      await recordAuditEvent(this.options.db, row);
      msg.ack();
    } catch (err) {
      this.options.logger.warn({ err, seq: msg.seq }, 'audit row not stored; redelivery requested');
      msg.nak(this.options.retryDelayMs ?? 5000);
    }
  }
}
