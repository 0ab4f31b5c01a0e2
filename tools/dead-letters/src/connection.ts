import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { dataDirOf, eventsAddressFile, readEventsAddress, type EventsAddress } from '@register/embedded';
import { IN_PROCESS_EVENTS_URL, STREAM_SUBJECTS, type NatsEvents } from '@register/service-kit';

/** A refusal the CLI prints as it is (no stack): the operator has something to set or start. */
export class CliError extends Error {}

/** How long one connect or one JetStream request may take before the CLI gives up with a message. */
export const REQUEST_TIMEOUT_MS = 5000;

export type Found = EventsAddress & { from: string };

/** NATS_URL (with EVENTS_STREAM and EVENTS_SUBJECT_PREFIX) as the services have them, else what npm start wrote. */
export function findEvents(env: NodeJS.ProcessEnv, root: string): Found {
  if (env['NATS_URL'])
    return {
      natsUrl: env['NATS_URL'],
      stream: env['EVENTS_STREAM'] || 'REGISTER',
      subjectPrefix: env['EVENTS_SUBJECT_PREFIX'] ?? '',
      from: 'NATS_URL',
    };
  const file = eventsAddressFile(dataDirOf(env, root));
  const written = readEventsAddress(dataDirOf(env, root));
  if (!written)
    throw new CliError(
      `No system to ask: NATS_URL is not set and ${shown(file)} does not exist ` +
        '(npm start writes it once the system is up and removes it when it stops). Start the system with npm start, ' +
        "or set NATS_URL (and EVENTS_STREAM, EVENTS_SUBJECT_PREFIX) to the deployment's.",
    );
  return { ...written, from: shown(file) };
}

type Connected = Pick<NatsEvents, 'js' | 'jsm' | 'stream' | 'prefix'> & { nc: NatsConnection };

/**
 * Connects to the system's NATS and checks that the stream is there and holds the register's subjects; it never
 * creates one (another server's stream would then get the register's dead letters).
 */
export async function connectToSystem(found: Found): Promise<Connected> {
  if (found.natsUrl === IN_PROCESS_EVENTS_URL)
    throw new CliError(
      `The system runs in single-process mode (${found.from}: events in-process, no NATS): a publish there completes ` +
        'only once every consumer has stored the event, so there are no dead letters to list or replay.',
    );
  const where = `NATS at ${found.natsUrl} (from ${found.from})`;
  const nc = await connect({
    servers: found.natsUrl.split(','),
    name: 'dead-letters-cli',
    timeout: REQUEST_TIMEOUT_MS,
    maxReconnectAttempts: 0,
  }).catch((err: unknown) => {
    const why = message(err) === 'timeout' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : message(err);
    throw new CliError(`Cannot reach ${where}: ${why}. Is the system running?`);
  });
  try {
    const jsm = await jetstreamManager(nc, { timeout: REQUEST_TIMEOUT_MS }).catch((err: unknown) => {
      throw new CliError(`${where} offers no JetStream (${message(err)}): it is not the register's event server.`);
    });
    const info = await jsm.streams.info(found.stream).catch((err: unknown) => {
      if (/not found/i.test(message(err)))
        throw new CliError(
          `${where} has no stream ${found.stream}: it is not the register's event server, or its services never ` +
            'started. Nothing was created there. Set NATS_URL (and EVENTS_STREAM) to the system you mean.',
        );
      throw new CliError(`${where} did not describe stream ${found.stream}: ${message(err)}`);
    });
    const expected = STREAM_SUBJECTS.map((s) => found.subjectPrefix + s);
    if (!expected.every((s) => info.config.subjects?.includes(s)))
      throw new CliError(
        `Stream ${found.stream} at ${where} holds ${JSON.stringify(info.config.subjects ?? [])}, not ` +
          `${JSON.stringify(expected)}: it is not this system's (check EVENTS_STREAM and EVENTS_SUBJECT_PREFIX).`,
      );
    const js = jetstream(nc, { timeout: REQUEST_TIMEOUT_MS });
    return { nc, js, jsm, stream: found.stream, prefix: found.subjectPrefix };
  } catch (err) {
    await nc.close();
    throw err;
  }
}

/** A path as typed from here when it is below the working directory, else absolute. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
