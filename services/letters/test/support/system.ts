import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock, Events } from '@register/service-kit';
import {
  natsUrl,
  removeDurableConsumers,
  startService,
  testEvents,
  type TestDatabase,
  type TestService,
} from '@register/testkit';
import type { Context } from '../../src/context';
import type { LettersDb } from '../../src/database';
import type { PdfRenderer } from '../../src/rendering/pdf-renderer';
import { start } from '../../src/main';

export interface LettersSystem extends TestService<Context> {
  db: Kysely<LettersDb>;
  events: Events;
  durable: string;
}

export interface LettersOptions {
  applicationsUrl?: string;
  documentsUrl?: string;
  natsUrl?: string;
  clock?: Clock;
  /** An existing database (a second replica of the service); a fresh one otherwise. */
  database?: TestDatabase;
  /** The durable consumer of an earlier start (the service started again); a new one otherwise. */
  durable?: string;
  /** The port of an earlier start, so that a gateway in front finds it again; any free port otherwise. */
  port?: number;
  /** Wraps the PDF renderer (a test holds renders in flight). */
  pdf?: (real: PdfRenderer) => PdfRenderer;
  /** The stream and subject prefix of the system it is part of (ADR 0160); the run's otherwise. */
  events?: { stream: string; prefix: string };
}

/**
 * The letters service as it runs in production (its own `runService`), on a database of its own and the real
 * NATS, with a durable consumer of its own (test files must not take each other's decisions) that retries
 * after 200 ms instead of seconds.
 */
export async function startLettersSystem(options: LettersOptions = {}): Promise<LettersSystem> {
  const durable = options.durable ?? `letters_test_${randomUUID().slice(0, 8)}`;
  const nats = options.natsUrl ?? natsUrl();
  const service = await startService(start, {
    name: 'letters',
    ...(options.database ? { database: options.database } : {}),
    env: {
      ...(options.port ? { PORT: String(options.port) } : {}),
      NATS_URL: nats,
      DB_POOL_MAX: '4',
      APPLICATION_EVENTS_CONSUMER: durable,
      ...(options.events ? { EVENTS_STREAM: options.events.stream, EVENTS_SUBJECT_PREFIX: options.events.prefix } : {}),
      // Nothing listens there unless a test starts the neighbour: its calls fail as the service would see it.
      APPLICATIONS_URL: options.applicationsUrl ?? 'http://127.0.0.1:9',
      DOCUMENTS_URL: options.documentsUrl ?? 'http://127.0.0.1:9',
    },
    override: (ctx: Context): Context => ({
      ...ctx,
      redelivery: { retryDelayMs: 200, restartDelayMs: 200 },
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.pdf ? { pdf: options.pdf(ctx.pdf) } : {}),
    }),
  });
  return {
    ...service,
    db: service.context.db,
    events: service.context.events as Events,
    durable,
    async close() {
      await service.close();
      await removeDurableConsumers(nats, [durable], options.events?.stream ?? testEvents().stream);
    },
  };
}
