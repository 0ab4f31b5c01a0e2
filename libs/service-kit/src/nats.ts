import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { EventBus, EventMessage, EventSubscription } from './event-bus';
import { IN_PROCESS_EVENTS_URL, InProcessEvents } from './in-process-events';
import type { Logger } from './logger';

/** One stream carries every event of the system; subjects are `register.<context>.<event>`. */
export const STREAM_NAME = 'REGISTER';
export const STREAM_SUBJECTS = ['register.>'];

/** The JetStream transport; the connection, client and manager stay reachable for JetStream consumers and tests. */
export interface NatsEvents extends EventBus {
  readonly transport: 'nats';
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}
/** The NATS transport, as the test harnesses name it. */
export type Events = NatsEvents;

/** Either transport; a service branches on `transport` only where it consumes durably. */
export type ServiceEvents = NatsEvents | InProcessEvents;

/** `NATS_URL` decides: `in-process` (single-process mode) or NATS server URLs, comma-separated. */
export async function openEventBus(url: string, name: string, logger: Logger): Promise<ServiceEvents> {
  if (url === IN_PROCESS_EVENTS_URL) {
    logger.info('events: in-process transport (single-process mode)');
    return new InProcessEvents(name);
  }
  return connectEvents(url, name, logger);
}

export async function connectEvents(url: string, name: string, logger: Logger): Promise<NatsEvents> {
  const nc = await connect({ servers: url.split(','), name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error') logger.warn({ nats: s.type }, 'nats status');
    }
  })();
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm);
  const js = jetstream(nc);
  return {
    transport: 'nats',
    nc,
    js,
    jsm,
    async publish(subject: string, payload: string, msgId: string): Promise<void> {
      await js.publish(subject, payload, { msgID: msgId, timeout: 5000 });
    },
    subscribe(subject: string, onMessage: (message: EventMessage) => void): EventSubscription {
      const subscription = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (!err) onMessage({ subject: msg.subject, payload: msg.string() });
        },
      });
      return { unsubscribe: () => subscription.unsubscribe() };
    },
    async ready() {
      if (nc.isClosed()) return false;
      const flushed = nc.flush().then(() => true, () => false);
      const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref());
      return Promise.race([flushed, timeout]);
    },
    async close() {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

export async function ensureStream(jsm: JetStreamManager): Promise<void> {
  try {
    await jsm.streams.info(STREAM_NAME);
  } catch {
    try {
      await jsm.streams.add({ name: STREAM_NAME, subjects: STREAM_SUBJECTS, duplicate_window: 2 * 60 * 1_000_000_000 });
    } catch (err) {
      // Another service created it at the same moment.
      await jsm.streams.info(STREAM_NAME).catch(() => {
        throw err;
      });
    }
  }
}
