import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, eventually, type TestDatabase } from '@register/testkit';
import { createDatabase, type Database } from '../src/database';
import { subjectMatches, type EventMessage } from '../src/event-bus';
import { InProcessBroker, InProcessEvents } from '../src/in-process-events';
import { createLogger } from '../src/logger';
import { enqueueEvent, OutboxRelay, type WithOutbox } from '../src/outbox';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('NATS subject matching', () => {
  it.each([
    ['register.audit.>', 'register.audit.reference', true],
    ['register.audit.>', 'register.audit.reference.more', true],
    ['register.audit.>', 'register.audit', false],
    ['register.*.flag-changed', 'register.reference.flag-changed', true],
    ['register.*.flag-changed', 'register.reference.other', false],
    ['register.reference.flag-changed', 'register.reference.flag-changed', true],
    ['register.reference', 'register.reference.flag-changed', false],
    ['>', 'register', true],
  ])('when the filter is %s, then %s matches: %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});

describe('the in-process event bus (single-process mode)', () => {
  it(
    'when an event is published, then it resolves only after the ' +
      'durable consumer handled it, and core subscribers hear it once',
    async () => {
      const broker = new InProcessBroker();
      const audit = new InProcessEvents('audit', broker);
      const applications = new InProcessEvents('applications', broker);
      const producer = new InProcessEvents('reference', broker);
      const stored: string[] = [];
      const heard: EventMessage[] = [];
      audit.consume('audit', 'register.audit.>', async (m) => {
        await flush();
        stored.push(m.payload);
      });
      applications.subscribe('register.reference.flag-changed', (m) => heard.push(m));

      await producer.publish('register.audit.reference', 'a1', 'id-1');
      expect(stored).toEqual(['a1']);
      await producer.publish('register.reference.flag-changed', 'f1', 'id-2');
      await flush();
      expect(heard).toEqual([{ subject: 'register.reference.flag-changed', payload: 'f1' }]);
      expect(stored).toEqual(['a1']);
    },
  );

  it(
    'when the durable consumer fails, then the publish rejects, ' +
      'nobody hears it, and a later publish of the same id is delivered',
    async () => {
      const broker = new InProcessBroker();
      const bus = new InProcessEvents('svc', broker);
      let failing = true;
      const stored: string[] = [];
      const heard: string[] = [];
      bus.consume('audit', 'register.audit.>', async (m) => {
        if (failing) throw new Error('database down');
        stored.push(m.payload);
      });
      bus.subscribe('register.>', (m) => heard.push(m.payload));

      await expect(bus.publish('register.audit.x', 'e', 'id-1')).rejects.toThrow('database down');
      await flush();
      expect(heard).toEqual([]);
      failing = false;
      await bus.publish('register.audit.x', 'e', 'id-1');
      await flush();
      expect(stored).toEqual(['e']);
      expect(heard).toEqual(['e']);
    },
  );

  it(
    'when an id is published again within the duplicate window, ' +
      'then it is dropped; from the end of the window it is delivered',
    async () => {
      // The broker reads the time from Date.now(): the test sets it, so a slow machine cannot stretch the window.
      let now = 1_000_000;
      const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
      try {
        const broker = new InProcessBroker(50);
        const bus = new InProcessEvents('svc', broker);
        const stored: string[] = [];
        bus.consume('audit', 'register.audit.>', async (m) => {
          stored.push(m.payload);
        });
        await bus.publish('register.audit.x', 'first', 'id-1');
        now += 49;
        await bus.publish('register.audit.x', 'again', 'id-1');
        expect(stored).toEqual(['first']);
        now += 1;
        await bus.publish('register.audit.x', 'later', 'id-1');
        expect(stored).toEqual(['first', 'later']);
      } finally {
        clock.mockRestore();
      }
    },
  );

  it(
    'when the durable consumer is detached (its service stopped), ' +
      'then its events are refused until it is attached again',
    async () => {
      const broker = new InProcessBroker();
      const audit = new InProcessEvents('audit', broker);
      const producer = new InProcessEvents('reference', broker);
      audit.consume('audit', 'register.audit.>', async () => undefined);
      await audit.close();

      await expect(producer.publish('register.audit.reference', 'e', 'id-1')).rejects.toThrow(/not attached/);
      // Events nobody consumes durably are accepted, as the stream would keep them.
      await expect(producer.publish('register.applications.submitted', 'e', 'id-2')).resolves.toBeUndefined();

      const again = new InProcessEvents('audit', broker);
      const stored: string[] = [];
      again.consume('audit', 'register.audit.>', async (m) => {
        stored.push(m.payload);
      });
      await producer.publish('register.audit.reference', 'e', 'id-1');
      expect(stored).toEqual(['e']);
      expect(() => again.consume('audit', 'register.audit.>', async () => undefined)).toThrow(/already attached/);
    },
  );

  it(
    'when a service closes its handle, ' + "then only that service's subscriptions end and it can no longer publish",
    async () => {
      const broker = new InProcessBroker();
      const a = new InProcessEvents('a', broker);
      const b = new InProcessEvents('b', broker);
      const heardByA: string[] = [];
      const heardByB: string[] = [];
      a.subscribe('register.>', (m) => heardByA.push(m.payload));
      b.subscribe('register.>', (m) => heardByB.push(m.payload));
      await a.close();
      await b.publish('register.x.y', 'e', 'id-1');
      await flush();
      expect(heardByA).toEqual([]);
      expect(heardByB).toEqual(['e']);
      expect(await a.ready()).toBe(false);
      expect(await b.ready()).toBe(true);
      await expect(a.publish('register.x.y', 'e', 'id-2')).rejects.toThrow(/closed/);
    },
  );
});

describe('the outbox relay on the in-process bus', () => {
  let testDb: TestDatabase;
  let database: Database<WithOutbox>;
  const logger = createLogger('test', 'silent');

  beforeAll(async () => {
    testDb = await createTestDatabase('kit');
    database = createDatabase<WithOutbox>(testDb.url, logger);
    await sql`CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(), attempts integer NOT NULL DEFAULT 0)`.execute(
      database.db,
    );
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  const outboxCount = async (db: Kysely<WithOutbox>) =>
    Number(
      (
        await db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(
    'when the consumer fails, then the event stays in the outbox and arrives ' +
      'exactly once after it recovers; a rolled-back write publishes nothing',
    async () => {
      const broker = new InProcessBroker();
      const producer = new InProcessEvents('producer', broker);
      const consumer = new InProcessEvents('audit', broker);
      let failing = true;
      let refused = 0;
      const stored = new Map<string, number>();
      consumer.consume('audit', 'register.audit.>', async (m) => {
        if (failing) {
          refused += 1;
          throw new Error('audit database down');
        }
        const { id } = JSON.parse(m.payload) as { id: string };
        stored.set(id, (stored.get(id) ?? 0) + 1);
      });
      const relay = new OutboxRelay({
        db: database.db,
        pool: database.pool,
        bus: producer,
        logger,
        pollIntervalMs: 50,
      });
      await relay.start();
      try {
        const committed = await database.db
          .transaction()
          .execute((trx) => enqueueEvent(trx, 'register.audit.test', 'test:done', { n: 1 }, randomUUID()));
        await expect(
          database.db.transaction().execute(async (trx) => {
            await enqueueEvent(trx, 'register.audit.test', 'test:rolled-back', { n: 2 }, randomUUID());
            throw new Error('rollback');
          }),
        ).rejects.toThrow('rollback');

        // Two relay passes have offered it and failed; the row waits.
        await eventually(async () => (refused >= 2 ? true : undefined), 10_000, 10);
        expect(await outboxCount(database.db)).toBe(1);
        expect(stored.size).toBe(0);

        failing = false;
        await eventually(async () => ((await outboxCount(database.db)) === 0 ? true : undefined), 5000, 25);
        expect([...stored.entries()]).toEqual([[committed.id, 1]]);
      } finally {
        await relay.stop();
      }
    },
  );
});
