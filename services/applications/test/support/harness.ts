import http from 'node:http';
import pino from 'pino';
import { sql, type Kysely } from 'kysely';
import { createDatabase, connectEvents, FlagsClient, InternalClient, migrateToLatest, OutboxRelay, type Clock, type Events } from '@register/service-kit';
import { createTestDatabase, natsUrl, TEST_SECRET } from '@register/testkit';
import { migrations } from '../../migrations';
import { DocumentsClient } from '../../src/adapters/documents-client';
import { ReferenceClient } from '../../src/adapters/reference-client';
import { createApp } from '../../src/app';
import type { AppDatabase } from '../../src/data-access/database';
import { seedDemoData } from '../../src/data-access/seed-demo';
import { DocumentLinker } from '../../src/domain/document-linker';

/**
 * pg-pool's end() resolves before idle sockets are closed, and OutboxRelay.stop() leaves its error handler on
 * the released listener; a DROP DATABASE ... WITH (FORCE) right after would trip that handler (lib issue
 * reported). Letting the sockets close first avoids it.
 */
export const settle = () => new Promise((r) => setTimeout(r, 300));

export const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

/** Listens on a fixed port (0 = any) and can be stopped and started again on the same port. */
export class RestartableServer {
  private server: http.Server | null = null;
  port = 0;

  constructor(private readonly handler: http.RequestListener) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer(this.handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops accepting and cuts open connections, like a killed process. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

export interface ApplicationsHarness {
  url: string;
  db: Kysely<AppDatabase>;
  events: Events;
  linker: DocumentLinker;
  server: RestartableServer;
  close(): Promise<void>;
}

export interface ApplicationsOptions {
  referenceUrl: string;
  documentsUrl: string;
  clock?: Clock;
  /** An existing database (to restart the service on the same data); a fresh one otherwise. */
  databaseUrl?: string;
  linkPollMs?: number;
  startLinker?: boolean;
}

/** The applications service as main.ts wires it, on port 0, with real Postgres, NATS and HTTP neighbours. */
export async function startApplications(options: ApplicationsOptions): Promise<ApplicationsHarness & { databaseUrl: string; dropDatabase(): Promise<void> }> {
  const testDb = options.databaseUrl ? null : await createTestDatabase('applications');
  const databaseUrl = options.databaseUrl ?? testDb!.url;
  const database = createDatabase<AppDatabase>(databaseUrl, logger);
  await migrateToLatest(database.db, migrations, logger);
  await seedDemoData(database.db);
  const events = await connectEvents(natsUrl(), 'applications-test', logger);
  const internal = (baseUrl: string) => new InternalClient({ baseUrl, secret: TEST_SECRET, caller: 'applications', timeoutMs: 2000 });
  const referenceHttp = internal(options.referenceUrl);
  const documents = new DocumentsClient(internal(options.documentsUrl));
  // TTL 0: every read sees the reference service's current flag (the tests flip flags between calls).
  const flags = new FlagsClient(referenceHttp, logger, 0);
  const linker = new DocumentLinker({ db: database.db, documents, logger, pollIntervalMs: options.linkPollMs ?? 200, maxBackoffMs: 400 });
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger, pollIntervalMs: 200 });
  const app = createApp({
    config: { scholingThreshold: 2080, internalSecret: TEST_SECRET },
    db: database.db,
    logger,
    clock: options.clock ?? { now: () => new Date() },
    documents,
    reference: new ReferenceClient(referenceHttp),
    flags,
    linker,
    readiness: { database: async () => (await sql`SELECT 1`.execute(database.db), true) },
  });
  const server = new RestartableServer(app);
  await server.start();
  await relay.start();
  if (options.startLinker !== false) linker.start();
  return {
    url: server.url,
    db: database.db,
    events,
    linker,
    server,
    databaseUrl,
    async close() {
      await server.stop();
      await linker.stop();
      await relay.stop();
      await events.close();
      await database.close();
    },
    async dropDatabase() {
      await settle();
      await testDb?.drop();
    },
  };
}
