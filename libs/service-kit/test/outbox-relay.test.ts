import { randomUUID } from 'node:crypto';
import type { MsgRequest } from '@nats-io/jetstream';
import { sql } from 'kysely';
import { createTestDatabase, eventually, natsUrl, testEvents, type TestDatabase } from '@register/testkit';
import { createDatabase, type Database } from '../src/database';
import { createLogger } from '../src/logger';
import { connectEvents, type NatsEvents } from '../src/nats';
import { OutboxRelay, enqueueEvent, type WithOutbox } from '../src/outbox';

// The relay has many publishes in flight at once on NATS (ADR 0260): what reaches the stream keeps the order in
// which the events were written.
const logger = createLogger('outbox-relay-test', 'silent');
let tdb: TestDatabase;
let database: Database<WithOutbox>;
beforeAll(async () => {
  tdb = await createTestDatabase('relay');
  database = createDatabase<WithOutbox>(tdb.url, logger);
  await sql`CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(), attempts int NOT NULL DEFAULT 0)`.execute(database.db);
});
afterAll(async () => {
  await database.close();
  await tdb.drop();
});

describe('the outbox relay on NATS', () => {
  it('when 250 events wait, then the stream holds each once, in the order they were written', async () => {
    const subject = `register.test.${randomUUID()}`;
    const events = await connectEvents(natsUrl(), 'outbox-relay-test', logger, {
      name: testEvents().stream,
      prefix: testEvents().prefix,
    });
    try {
      await publishThroughRelay(events, subject);
      expect(await numbersIn(events, subject)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    } finally {
      await events.close();
    }
  });
});

describe("the outbox relay's LISTEN", () => {
  it(
    'when the relay listens on a pool of one connection, then that connection stays free for requests ' +
      'and a commit still wakes the relay',
    async () => {
      const small = createDatabase<WithOutbox>(tdb.url, logger, { max: 1, min: 0 });
      const subject = `register.test.${randomUUID()}`;
      const events = await connectEvents(natsUrl(), 'outbox-relay-test', logger, {
        name: testEvents().stream,
        prefix: testEvents().prefix,
      });
      // Polling only once an hour: after its first pass, the relay publishes an event only if NOTIFY wakes it.
      const relay = new OutboxRelay({ db: small.db, pool: small.pool, bus: events, logger, pollIntervalMs: 3600_000 });
      try {
        await enqueueEvent(small.db, subject, 'numbered', { n: 1 }, null);
        await relay.start();
        // The first pass has run once the event written before the start is on the stream.
        await eventually(async () => ((await numbersIn(events, subject)).length === 1 ? true : undefined));
        // A request's transaction holds the pool's only connection while it writes an event.
        await small.db.transaction().execute(async (trx) => {
          await enqueueEvent(trx, subject, 'numbered', { n: 2 }, null);
        });
        await eventually(async () => ((await numbersIn(events, subject)).length === 2 ? true : undefined));
        expect(await numbersIn(events, subject)).toEqual([1, 2]);
      } finally {
        await relay.stop();
        await events.close();
        await small.close();
      }
    },
  );
});

async function publishThroughRelay(events: NatsEvents, subject: string): Promise<void> {
  for (let n = 1; n <= 250; n++) await enqueueEvent(database.db, subject, 'numbered', { n }, null);
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, bus: events, logger, batchSize: 100 });
  await relay.start();
  try {
    await eventually(async () =>
      (await database.db.selectFrom('outbox').select('id').execute()).length === 0 ? true : undefined,
    );
  } finally {
    await relay.stop();
  }
}

/** The stream's messages of a subject, read by sequence: every one, and nothing else after the last. */
async function numbersIn(events: NatsEvents, subject: string): Promise<number[]> {
  const seen: number[] = [];
  for (let seq = 1; ; seq++) {
    // The server's message get takes `next_by_subj` (the first message of the subject at or after `seq`); the
    // client's type for it names only `seq` and `last_by_subj`.
    const query = { next_by_subj: events.prefix + subject, seq } as unknown as MsgRequest;
    const msg = await events.jsm.streams.getMessage(events.stream, query).catch(() => null);
    if (!msg) break;
    seen.push(msg.json<{ data: { n: number } }>().data.n);
    seq = msg.seq;
  }
  return seen;
}
