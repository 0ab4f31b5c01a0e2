import pino from 'pino';
import type { Kysely } from 'kysely';
import { FlagsClient, InternalClient, type Clock, type Events } from '@register/service-kit';
import { startService, TEST_SECRET, type TestDatabase, type TestService } from '@register/testkit';
import type { Context, DocumentsPort } from '../../src/context';
import type { AppDatabase } from '../../src/database';
import { start } from '../../src/main';

export const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

export interface ApplicationsSystem extends TestService<Context> {
  db: Kysely<AppDatabase>;
  events: Events;
}

export interface ApplicationsOptions {
  referenceUrl: string;
  documentsUrl: string;
  clock?: Clock;
  /** An existing database (to restart the service on the same data); a fresh one otherwise. */
  database?: TestDatabase;
  /** Wraps the documents adapter (a crash test kills the documents service at the moment of a call). */
  documents?: (real: DocumentsPort) => DocumentsPort;
  /** More environment (the ZGW_* settings of a mirror test). */
  env?: Record<string, string>;
}

/**
 * The applications service as it runs in production (its own `runService`), on a database of its own, the
 * real NATS and its real neighbours over HTTP. Flags are read fresh on every call (the tests flip them).
 */
export async function startApplicationsSystem(options: ApplicationsOptions): Promise<ApplicationsSystem> {
  const service = await startService(start, {
    name: 'applications',
    env: {
      REFERENCE_URL: options.referenceUrl,
      DOCUMENTS_URL: options.documentsUrl,
      LINK_POLL_INTERVAL_MS: '200',
      ...options.env,
    },
    ...(options.database ? { database: options.database } : {}),
    override: (ctx: Context): Context => ({
      ...ctx,
      flags: new FlagsClient(
        new InternalClient({ baseUrl: options.referenceUrl, secret: TEST_SECRET, caller: 'applications' }),
        logger,
        0,
      ),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.documents ? { documents: options.documents(ctx.documents) } : {}),
    }),
  });
  return { ...service, db: service.context.db, events: service.context.events as Events };
}
