import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ProcessingBatchData, type ProcessingRecordData } from '@register/contracts';
import { freePort, startNatsServer } from '@register/embedded';
import { createTestDatabase, eventually, natsUrl, testEvents, type TestDatabase } from '@register/testkit';
import { createDatabase, type Database } from '../src/database';
import { createLogger } from '../src/logger';
import type { WithOutbox } from '../src/outbox';
import { connectEvents, type NatsEvents } from '../src/nats';
import { processingLog, pseudonymOf, type ProcessingStep } from '../src/processing-log';
import { ProcessingSpool, type ProcessingSpoolOptions } from '../src/processing-spool';

// ADR 0269: a read's processing records are kept in a spool of the service before its answer and published in
// batches (ADR 0268); none is lost when the process crashes or the stream is away at shutdown.

const SECRET = 'processing-spool-test-secret-0123456789abcdef';
const logger = createLogger('processing-spool-test', 'silent');
const root = path.resolve(__dirname, '..', '..', '..');
const read = (subjects: string[]): ProcessingStep & { subjects: string[] } => ({
  activity: 'inzage-registratie',
  subject: subjects[0]!,
  subjects,
  door: 'zelf',
  name: 'GET /api/v1/registration',
  start: new Date('2026-11-28T10:00:00.000Z'),
  end: new Date('2026-11-28T10:00:00.010Z'),
});
const segments = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
/** A spool of the applications service in the test's directory and database; `options` are what a test sets. */
const spoolWith = (options: Pick<ProcessingSpoolOptions, 'events'> & Partial<ProcessingSpoolOptions>) =>
  new ProcessingSpool({ dir, service: 'applications', db: database.db, logger, ...options });

let tdb: TestDatabase;
let database: Database<WithOutbox>;
let events: NatsEvents;
let dir: string;
beforeAll(async () => {
  tdb = await createTestDatabase('spool');
  database = createDatabase<WithOutbox>(tdb.url, logger);
  await sql`CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), attempts int NOT NULL DEFAULT 0)`.execute(database.db);
  events = await connectEvents(natsUrl(), 'processing-spool-test', logger, {
    name: testEvents().stream,
    prefix: testEvents().prefix,
  });
});
afterAll(async () => {
  await events?.close();
  await database?.close();
  await tdb?.drop();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'processing-spool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** How many messages the stream holds on `register.processing-batch.<service>`. */
async function messagesOn(service: string): Promise<number> {
  const subject = `${events.prefix}register.processing-batch.${service}`;
  const info = await events.jsm.streams.info(events.stream, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

/** The batches on `register.processing-batch.<service>` in the stream, their records' ids and subjects. */
async function batchesOf(service: string): Promise<Array<{ id: string; subject: string }>> {
  const subject = `${events.prefix}register.processing-batch.${service}`;
  const info = await events.jsm.streams.info(events.stream, { subjects_filter: subject });
  const count = info.state.subjects?.[subject] ?? 0;
  const found: Array<{ id: string; subject: string }> = [];
  if (count === 0) return found;
  const reader = await events.js.consumers.get(events.stream, { filter_subjects: subject });
  for await (const msg of await reader.fetch({ max_messages: count, expires: 5000 })) {
    const { data } = msg.json<{ data: ProcessingBatchData }>();
    expect(ProcessingBatchData.safeParse(data).success).toBe(true);
    for (const r of data.records) found.push({ id: r.id, subject: r.record.attributes['dpl.core.data_subject_id'] });
  }
  return found;
}

/**
 * Runs `fn` with events on a NATS server of its own, which `fn` stops to take the stream away; then closes the
 * connection, empties the outbox and removes the server's directory.
 */
async function withStreamOfItsOwn(
  fn: (away: NatsEvents, takeStreamAway: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const natsDir = mkdtempSync(path.join(os.tmpdir(), 'processing-spool-nats-'));
  const nats = await startNatsServer(natsDir, await freePort());
  const away = await connectEvents(nats.url, 'processing-spool-test', logger);
  try {
    await fn(away, () => nats.stop());
  } finally {
    await away.nc.close();
    await database.db.deleteFrom('outbox').execute();
    rmSync(natsDir, { recursive: true, force: true });
  }
}

describe('the processing spool (ADR 0269)', () => {
  it(
    'when a read is logged, then its records are in the spool when the call returns, and then reach the stream ' +
      'as one batch and leave the spool',
    async () => {
      const service = `spool${Date.now()}`;
      const spool = spoolWith({ service, events, intervalMs: 100 });
      await spool.start();
      try {
        await processingLog(service, SECRET, events, spool).writeRead(database.db, read(['999990019', '999990020']));
        // Read before anything else is awaited: the shipper's timer cannot run in between.
        const [segment] = segments(dir);
        const lines = readFileSync(path.join(dir, segment!), 'utf8').trim().split('\n');
        expect(lines.map((l) => (JSON.parse(l) as { record: ProcessingRecordData }).record.name)).toEqual([
          'GET /api/v1/registration',
          'GET /api/v1/registration',
        ]);
        const batches = await eventually(async () => {
          const found = await batchesOf(service);
          return found.length > 0 ? found : undefined;
        });
        expect(batches.map((b) => b.subject).sort()).toEqual(
          [pseudonymOf('999990019', SECRET), pseudonymOf('999990020', SECRET)].sort(),
        );
        await eventually(async () => (segments(dir).length === 0 ? true : undefined));
      } finally {
        await spool.stop();
      }
      // Both records in one message, published once.
      expect(await messagesOn(service)).toBe(1);
      expect(await database.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
      expect(existsSync(path.join(dir, 'lock'))).toBe(false);
    },
  );

  it('when the process is killed after a read was logged, then the next start publishes its records', async () => {
    const service = `spoolkill${Date.now()}`;
    const script = `
      const kit = require(${JSON.stringify(path.join(root, 'libs/service-kit/dist/index.js'))});
      (async () => {
        const logger = kit.createLogger('spool-child', 'silent');
        const events = await kit.connectEvents(${JSON.stringify(natsUrl())}, 'spool-child', logger,
          { name: ${JSON.stringify(events.stream)}, prefix: ${JSON.stringify(events.prefix)} });
        const spool = new kit.ProcessingSpool({ dir: ${JSON.stringify(dir)}, service: ${JSON.stringify(service)},
          events, db: null, logger, intervalMs: 60000 });
        await spool.start();
        const at = new Date();
        await kit.processingLog(${JSON.stringify(service)}, ${JSON.stringify(SECRET)}, events, spool).writeRead(null,
          { activity: 'inzage-registratie', subjects: ['999990021'], door: 'zelf', name: 'GET /api/v1/registration',
            start: at, end: at });
        process.kill(process.pid, 'SIGKILL');
      })();
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, sig) => resolve(sig)),
    );
    expect({ signal, stderr }).toMatchObject({ signal: 'SIGKILL' });
    expect(segments(dir)).toHaveLength(1);
    expect(await batchesOf(service)).toEqual([]);

    const next = spoolWith({ service, events, intervalMs: 60_000 });
    await next.start();
    try {
      expect((await batchesOf(service)).map((b) => b.subject)).toEqual([pseudonymOf('999990021', SECRET)]);
      expect(segments(dir)).toEqual([]);
    } finally {
      await next.stop();
    }
  });

  it('when the stream is away at shutdown, then its records go to the outbox as single records, same ids', async () => {
    await withStreamOfItsOwn(async (away, takeStreamAway) => {
      const spool = spoolWith({ events: away, intervalMs: 60_000 });
      await spool.start();
      await processingLog('applications', SECRET, away, spool).writeRead(database.db, read(['999990022']));
      const spooled = readFileSync(path.join(dir, segments(dir)[0]!), 'utf8');
      await takeStreamAway();
      await spool.stop();
      const rows = await database.db.selectFrom('outbox').selectAll().execute();
      expect(rows.map((r) => [r.subject, r.envelope.type])).toEqual([
        ['register.processing.applications', 'processing'],
      ]);
      expect(spooled).toContain(rows[0]!.id);
      expect(rows[0]!.envelope.id).toBe(rows[0]!.id);
      expect(segments(dir)).toEqual([]);
    });
  });

  it(
    'when the stream is away and the spool holds its most, then the next read goes to the outbox instead, and ' +
      'the spool takes no more',
    async () => {
      await withStreamOfItsOwn(async (away, takeStreamAway) => {
        const spool = spoolWith({ events: away, intervalMs: 60_000, maxBytes: 1000 });
        await spool.start();
        try {
          await takeStreamAway();
          const log = processingLog('applications', SECRET, away, spool);
          await log.writeRead(database.db, read(['999990023']));
          const held = spool.bytesHeld;
          // One record fits under the bound and a second does not.
          expect(held).toBeGreaterThan(500);
          expect(held).toBeLessThanOrEqual(1000);
          expect(await database.db.selectFrom('outbox').selectAll().execute()).toEqual([]);

          await log.writeRead(database.db, read(['999990024']));
          const rows = await database.db.selectFrom('outbox').selectAll().execute();
          const data = rows.map((r) => r.envelope.data as ProcessingRecordData);
          expect(data.map((d) => d.attributes['dpl.core.data_subject_id'])).toEqual([pseudonymOf('999990024', SECRET)]);
          expect(spool.bytesHeld).toBe(held);
          const spooled = readFileSync(path.join(dir, segments(dir)[0]!), 'utf8')
            .trim()
            .split('\n');
          expect(spooled).toHaveLength(1);
          expect(spooled[0]).toContain(pseudonymOf('999990023', SECRET));
        } finally {
          await spool.stop();
        }
      });
    },
  );

  it('when another live process holds the directory, then the spool refuses to start and says which', async () => {
    writeFileSync(path.join(dir, 'lock'), String(process.ppid));
    const spool = spoolWith({ events });
    await expect(spool.start()).rejects.toThrow(`is in use by process ${process.ppid}`);
  });
});
