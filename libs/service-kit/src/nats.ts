import { context } from '@opentelemetry/api';
import { connect, headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { EventBus, EventMessage, EventSubscription } from './event-bus';
import { IN_PROCESS_EVENTS_URL, InProcessEvents } from './in-process-events';
import type { Logger } from './logger';
import { endSettledRequestsWithoutAnError } from './nats-settled-requests';
import { traceContextOf, traceHeaders } from './telemetry/trace-context';

/** One stream carries every event of the system; subjects are `register.<context>.<event>`. */
export const STREAM_NAME = 'REGISTER';
export const STREAM_SUBJECTS = ['register.>'];

/** The JetStream transport; the connection, client and manager stay reachable for JetStream consumers and tests. */
export interface NatsEvents extends EventBus {
  readonly transport: 'nats';
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  /** The stream this deployment uses (`EVENTS_STREAM`, default REGISTER). */
  stream: string;
  /**
   * Put before every subject on the wire (`EVENTS_SUBJECT_PREFIX`, default none), so that several systems
   * (test runs) share one NATS without seeing each other's events. Code names subjects without it.
   */
  prefix: string;
}
/** The NATS transport, as the test systems name it. */
export type Events = NatsEvents;

/** Either transport; a service branches on `transport` only where it consumes durably. */
export type ServiceEvents = NatsEvents | InProcessEvents;

/** `NATS_URL` decides: `in-process` (single-process mode) or NATS server URLs, comma-separated. */
export async function openEventBus(
  url: string,
  name: string,
  logger: Logger,
  stream: StreamSettings = {},
): Promise<ServiceEvents> {
  if (url === IN_PROCESS_EVENTS_URL) {
    logger.info('events: in-process transport (single-process mode)');
    return new InProcessEvents(name);
  }
  return connectEvents(url, name, logger, stream);
}

export interface StreamSettings {
  /** How long the stream keeps an event (EVENTS_MAX_AGE): the longest outage a durable consumer survives. */
  maxAgeMs?: number;
  /** The stream's name (EVENTS_STREAM). */
  name?: string;
  /** The subject prefix (EVENTS_SUBJECT_PREFIX), e.g. `t1a2b3c.`; the stream holds `<prefix>register.>`. */
  prefix?: string;
  /** Copies of the stream in a NATS cluster (EVENTS_REPLICAS); the consumers take the stream's. */
  replicas?: number;
}

/** ADR 0035: seven days, so a consumer may be down over a long weekend. */
export const DEFAULT_EVENTS_MAX_AGE_MS = 7 * 24 * 3600_000;

/**
 * How long a lost connection still counts as ready: the client moves to another server of a cluster within this,
 * and writes wait in the outbox meanwhile, so a broker node's loss takes no replica out of its Service (ADR 0200).
 */
const RECONNECT_GRACE_MS = 5000;

/** Since when the connection is lost (null: connected). */
interface ConnectionWatch {
  downSince: number | null;
}

/** Disconnects, reconnects and errors go to the log, and the watch; the client reconnects by itself. */
async function watchConnection(nc: NatsConnection, logger: Logger, watch: ConnectionWatch): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === 'disconnect') watch.downSince ??= Date.now();
    if (s.type === 'reconnect') watch.downSince = null;
    if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
      logger.warn({ nats: s.type }, 'nats status');
  }
}

/** Readiness: connected and answering, or lost for less than the grace a reconnect takes. */
async function readyOrReconnecting(nc: NatsConnection, watch: ConnectionWatch): Promise<boolean> {
  if (nc.isClosed()) return false;
  if (watch.downSince !== null) return Date.now() - watch.downSince < RECONNECT_GRACE_MS;
  return answersWithinASecond(nc);
}

/** A core-NATS subscription whose handler runs in the trace of the request that caused the notification. */
function subscribeInTrace(
  nc: NatsConnection,
  prefix: string,
  subject: string,
  onMessage: (message: EventMessage) => void,
): EventSubscription {
  const subscription = nc.subscribe(prefix + subject, {
    callback: (err, msg) => {
      if (err) return;
      const message = { subject: msg.subject.slice(prefix.length), payload: msg.string() };
      // A notification continues the trace of the request that caused it (the relay's message headers).
      const traceparent = msg.headers?.get('traceparent');
      if (traceparent)
        context.with(traceContextOf(traceparent, msg.headers?.get('tracestate')), () => onMessage(message));
      else onMessage(message);
    },
  });
  return { unsubscribe: () => subscription.unsubscribe() };
}

/** Readiness: the server answers a flush within a second. */
async function answersWithinASecond(nc: NatsConnection): Promise<boolean> {
  if (nc.isClosed()) return false;
  const flushed = nc.flush().then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref());
  return Promise.race([flushed, timeout]);
}

export async function connectEvents(
  url: string,
  name: string,
  logger: Logger,
  stream: StreamSettings = {},
): Promise<NatsEvents> {
  endSettledRequestsWithoutAnError();
  const nc = await connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    // Without it the client builds an Error (a captured stack) for every request and every JetStream publish, in
    // case it fails: about 50 µs a publish. Our failures are logged by message and kind, never by that stack.
    noAsyncTraces: true,
  });
  const watch: ConnectionWatch = { downSince: null };
  void watchConnection(nc, logger, watch);
  const jsm = await jetstreamManager(nc);
  const streamName = stream.name ?? STREAM_NAME;
  const prefix = stream.prefix ?? '';
  await ensureStream(
    jsm,
    {
      name: streamName,
      prefix,
      maxAgeMs: stream.maxAgeMs ?? DEFAULT_EVENTS_MAX_AGE_MS,
      ...(stream.replicas ? { replicas: stream.replicas } : {}),
    },
    logger,
  );
  const js = jetstream(nc);
  return {
    transport: 'nats',
    nc,
    js,
    jsm,
    stream: streamName,
    prefix,
    pipelined: true,
    async publish(subject: string, payload: string, msgId: string, options?: { timeoutMs?: number }): Promise<void> {
      const timeout = options?.timeoutMs ?? 5000;
      await js.publish(prefix + subject, payload, { msgID: msgId, timeout, ...withTraceHeaders() });
    },
    subscribe: (subject, onMessage) => subscribeInTrace(nc, prefix, subject, onMessage),
    ready: () => readyOrReconnecting(nc, watch),
    async close() {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

/**
 * Creates the stream, or brings its age limit to `maxAgeMs` when it differs (every service may call this; the
 * last configured value wins, so all services should share one EVENTS_MAX_AGE).
 */
export async function ensureStream(
  jsm: JetStreamManager,
  target: { name: string; prefix: string; maxAgeMs?: number; replicas?: number },
  logger?: Logger,
): Promise<void> {
  const { name, maxAgeMs, replicas } = target;
  const maxAge = (maxAgeMs ?? DEFAULT_EVENTS_MAX_AGE_MS) * 1_000_000;
  try {
    const info = await jsm.streams.info(name);
    // Without an age given (a consumer recreating a lost stream), an existing stream is left as it is.
    const ageDiffers = maxAgeMs !== undefined && info.config.max_age !== maxAge;
    const replicasDiffer = replicas !== undefined && info.config.num_replicas !== replicas;
    if (ageDiffers || replicasDiffer) {
      await jsm.streams.update(name, {
        ...info.config,
        ...(ageDiffers ? { max_age: maxAge } : {}),
        ...(replicasDiffer ? { num_replicas: replicas } : {}),
      });
      logger?.info({ stream: name, maxAgeMs, replicas }, 'stream limits set');
    }
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await jsm.streams.add({
        name,
        subjects: STREAM_SUBJECTS.map((s) => target.prefix + s),
        duplicate_window: 2 * 60 * 1_000_000_000,
        max_age: maxAge,
        num_replicas: replicas ?? 1,
      });
    } catch (addErr) {
      // Another service created it at the same moment.
      await jsm.streams.info(name).catch(() => {
        throw addErr;
      });
    }
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; api_error?: { err_code?: number }; message?: string };
  return e?.api_error?.err_code === 10059 || e?.code === '404' || /stream not found/i.test(String(e?.message));
}

/** The active trace as NATS message headers (`traceparent`, `tracestate`), or nothing outside a trace. */
function withTraceHeaders(): { headers?: MsgHdrs } {
  const trace = traceHeaders();
  if (!trace['traceparent']) return {};
  const h = headers();
  for (const [name, value] of Object.entries(trace)) h.set(name, value);
  return { headers: h };
}
