import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { Logger } from './logger';

/** One stream carries every event of the system; subjects are `register.<context>.<event>`. */
export const STREAM_NAME = 'REGISTER';
export const STREAM_SUBJECTS = ['register.>'];

export interface Events {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export async function connectEvents(url: string, name: string, logger: Logger): Promise<Events> {
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
    nc,
    js,
    jsm,
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
