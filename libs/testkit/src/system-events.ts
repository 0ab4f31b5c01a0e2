import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { removeDurableConsumers, testEvents } from './core';

/** The six services, as the launcher names them (settings per service are keyed by these). */
export const SYSTEM_SERVICES = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'] as const;
export type SystemService = (typeof SYSTEM_SERVICES)[number];
export type ServiceSettings = Partial<Record<SystemService, Record<string, string>>>;

/**
 * What one system a test starts owns on the shared NATS (ADR 0160): a stream and subject prefix of its own, so
 * it never sees another system's events nor they its, and its durable consumers' names.
 */
export interface SystemEvents {
  stream: string;
  /** Put before every subject on the wire, e.g. `sys_1a2b3c.`. */
  prefix: string;
  consumers: { audit: string; documents: string; letters: string };
  /** Every service's settings for them: the stream and prefix for all six, each consumer its name. */
  env: Record<SystemService, Record<string, string>>;
  /** Deletes the stream and with it every consumer on it; a stream that is not there is fine. */
  remove(natsUrl: string): Promise<void>;
}

/** `id`: a token of the system's own (its database prefix), lower case letters, digits, `_` and `-`. */
export function systemEvents(id: string): SystemEvents {
  if (!/^[a-z0-9_-]{1,31}$/.test(id)) throw new Error(`${id} cannot name a system's events`);
  // Named after the run's stream, so the global teardown finds any a test left behind.
  const stream = `${testEvents().stream}_${id}`;
  const prefix = `${id}.`;
  const consumers = { audit: `audit_${id}`, documents: `documents_${id}`, letters: `letters_${id}` };
  const shared = { EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: prefix };
  const env = Object.fromEntries(
    SYSTEM_SERVICES.map((s): [SystemService, Record<string, string>] => [s, { ...shared }]),
  ) as SystemEvents['env'];
  env.audit['AUDIT_CONSUMER'] = consumers.audit;
  env.documents['APPLICATION_EVENTS_CONSUMER'] = consumers.documents;
  env.letters['APPLICATION_EVENTS_CONSUMER'] = consumers.letters;
  return { stream, prefix, consumers, env, remove: (natsUrl) => deleteStreams(natsUrl, (name) => name === stream) };
}

/** `base` with `over` laid over it, service by service (a service's own settings win). */
export function withServiceSettings(base: ServiceSettings, over: ServiceSettings = {}): ServiceSettings {
  return Object.fromEntries(
    SYSTEM_SERVICES.map((s) => [s, { ...base[s], ...over[s] }] as const).filter(([, env]) => Object.keys(env).length),
  );
}

/** Deletes every stream whose name `matches` (with their consumers). */
export async function deleteStreams(natsUrl: string, matches: (name: string) => boolean): Promise<void> {
  const nc = await connect({ servers: natsUrl, name: 'test-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    const names: string[] = [];
    for await (const name of jsm.streams.names()) if (matches(name)) names.push(name);
    for (const name of names) await jsm.streams.delete(name).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** What a bench's system owns on NATS, and how it goes at the end. */
export interface BenchEvents {
  /** The settings to lay over the environment the bench's system gets (the launcher's `settings`). */
  env: Record<string, string>;
  remove(natsUrl: string): Promise<void>;
}

/**
 * A bench's system gets a stream and subject prefix of its own. On a shared stream its new durable consumers would
 * first replay everything earlier runs left there, inside the measured rounds. `remove` deletes the stream with its
 * consumers. A stream the caller named (EVENTS_STREAM in `env`) is used as it is; then only `consumers` are
 * removed from it.
 */
export function benchEvents(id: string, consumers: string[] = [], env = process.env): BenchEvents {
  const named = env['EVENTS_STREAM'];
  if (named) return { env: {}, remove: (natsUrl) => removeDurableConsumers(natsUrl, consumers, named) };
  if (!/^[a-z0-9_]{1,24}$/.test(id)) throw new Error(`${id} cannot name a bench's events`);
  const run = randomBytes(3).toString('hex');
  const stream = `BENCH_${id.toUpperCase()}_${run}`;
  return {
    env: { EVENTS_STREAM: stream, EVENTS_SUBJECT_PREFIX: `${id}${run}.` },
    remove: (natsUrl) => deleteStreams(natsUrl, (name) => name === stream),
  };
}
