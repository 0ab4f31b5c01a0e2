import { randomUUID } from 'node:crypto';
import { eventually, natsUrl, removeDurableConsumers, testEvents } from '@register/testkit';
import { DEAD_LETTER_PREFIX, DurableConsumer, type ConsumeOutcome, type DeadLetter } from '../src/durable-consumer';
import { createLogger } from '../src/logger';
import { connectEvents, DEFAULT_EVENTS_MAX_AGE_MS, type NatsEvents } from '../src/nats';

const logger = createLogger('durable-consumer-test', 'silent');
let events: NatsEvents;
const durables: string[] = [];

beforeAll(async () => {
  events = await connectEvents(natsUrl(), 'durable-consumer-test', logger, {
    name: testEvents().stream,
    prefix: testEvents().prefix,
  });
});
afterAll(async () => {
  await removeDurableConsumers(natsUrl(), durables);
  await events.close();
});

function consumer(
  handle: (subject: string, payload: unknown) => Promise<'handled'>,
  subject: string,
  retryDelayMs = 20,
) {
  const durable = `test-dl-${randomUUID().slice(0, 8)}`;
  durables.push(durable);
  return {
    durable,
    c: new DurableConsumer({
      events,
      durable,
      filter: subject,
      handle,
      logger,
      retryDelayMs,
      maxRetryDelayMs: Math.max(50, retryDelayMs),
      maxDeliver: 3,
    }),
  };
}

async function lastDeadLetter(durable: string): Promise<DeadLetter | undefined> {
  const msg = await events.jsm.streams
    .getMessage(events.stream, { last_by_subj: `${events.prefix}${DEAD_LETTER_PREFIX}.${durable}` })
    .catch(() => null);
  return msg ? msg.json<DeadLetter>() : undefined;
}

describe('DurableConsumer', () => {
  it(
    'when a handler keeps failing, then after maxDeliver ' +
      'deliveries the event goes to the dead-letter subject, once',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      let calls = 0;
      const { durable, c } = consumer(async () => {
        calls += 1;
        throw new Error('downstream refused it');
      }, subject);
      await c.start();
      const payload = JSON.stringify({ id: randomUUID(), type: 'test', data: { n: 1 } });
      await events.publish(subject, payload, randomUUID());

      const letter = await eventually(() => lastDeadLetter(durable));
      await c.stop();

      expect(letter).toMatchObject({ durable, subject, deliveries: 3, error: 'downstream refused it', event: payload });
      expect(calls).toBe(3);
      expect(c.deadLetters).toBe(1);
    },
  );

  it(
    'when a handler fails twice and then succeeds, ' + 'then the event is handled and nothing is dead-lettered',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      let calls = 0;
      let handled = false;
      const { durable, c } = consumer(async () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
        handled = true;
        return 'handled';
      }, subject);
      await c.start();
      await events.publish(subject, JSON.stringify({ id: randomUUID() }), randomUUID());

      await eventually(async () => (handled ? true : undefined));
      await c.stop();

      expect(calls).toBe(3);
      expect(c.deadLetters).toBe(0);
      expect(await lastDeadLetter(durable)).toBeUndefined();
    },
  );

  it(
    'when a handler fails, then the event comes again only after the retry delay, ' +
      'and the events after it are handled meanwhile',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      const calls: Array<{ n: unknown; at: number }> = [];
      const { c } = consumer(
        async (_, payload) => {
          const n = (payload as { n: number }).n;
          calls.push({ n, at: performance.now() });
          if (n === 1 && calls.filter((call) => call.n === 1).length === 1) throw new Error('not yet');
          return 'handled';
        },
        subject,
        400,
      );
      await c.start();
      for (const n of [1, 2, 3]) await events.publish(subject, JSON.stringify({ id: randomUUID(), n }), randomUUID());

      await eventually(async () => (calls.length === 4 ? true : undefined));
      await c.stop();

      expect(calls.map((call) => call.n)).toEqual([1, 2, 3, 1]);
      expect(calls[3]!.at - calls[0]!.at).toBeGreaterThanOrEqual(395);
    },
  );

  it(
    'when the events are opened, ' + 'then the stream keeps an event at most EVENTS_MAX_AGE (seven days by default)',
    async () => {
      const info = await events.jsm.streams.info(events.stream);
      expect(info.config.max_age).toBe(DEFAULT_EVENTS_MAX_AGE_MS * 1_000_000);
    },
  );
});

describe('DurableConsumer with a batch handler', () => {
  type Batch = ReadonlyArray<{ subject: string; payload: unknown }>;
  const nOf = (payload: unknown) => (payload as { n: number }).n;

  function batchConsumer(
    subject: string,
    handleBatch: (events: Batch) => Promise<ConsumeOutcome[]>,
    handled: number[],
  ) {
    const durable = `test-batch-${randomUUID().slice(0, 8)}`;
    durables.push(durable);
    const c = new DurableConsumer({
      events,
      durable,
      filter: subject,
      logger,
      retryDelayMs: 20,
      maxRetryDelayMs: 50,
      maxDeliver: 3,
      handle: async (_subject, payload) => {
        if (nOf(payload) === 13) throw new Error('thirteen is refused');
        handled.push(nOf(payload));
        return 'handled';
      },
      handleBatch,
    });
    return { durable, c };
  }

  async function publishNumbered(subject: string, count: number, text = (n: number) => JSON.stringify({ n })) {
    for (let n = 1; n <= count; n++) await events.publish(subject, text(n), randomUUID());
  }

  async function settled(durable: string) {
    const info = await events.jsm.consumers.info(events.stream, durable);
    return info.num_pending === 0 && info.num_ack_pending === 0 ? info : undefined;
  }

  it(
    'when 60 events wait, then they come in batches of more than one, ' +
      'in order, and each is acked and terminated as its outcome says',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      await publishNumbered(subject, 60, (n) => (n === 7 ? 'not json' : JSON.stringify({ n })));
      const sizes: number[] = [];
      const handled: number[] = [];
      const { durable, c } = batchConsumer(
        subject,
        async (batch) => {
          sizes.push(batch.length);
          return batch.map(({ payload }) => {
            if (payload === undefined) return 'malformed';
            handled.push(nOf(payload));
            return 'handled';
          });
        },
        handled,
      );
      await c.start();
      const info = await eventually(() => settled(durable));
      await c.stop();

      expect(handled).toEqual(Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => n !== 7));
      expect(Math.max(...sizes)).toBeGreaterThan(1);
      expect(info.delivered.consumer_seq).toBe(60);
      expect(c.deadLetters).toBe(0);
    },
  );

  it(
    'when a batch throws, then each of its events is handled on its own: ' +
      'the one that keeps failing is dead-lettered alone',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      await publishNumbered(subject, 20);
      const handled: number[] = [];
      let batches = 0;
      const { durable, c } = batchConsumer(
        subject,
        async (batch) => {
          batches += 1;
          if (batch.some(({ payload }) => nOf(payload) === 13)) throw new Error('the batch holds thirteen');
          return batch.map(({ payload }) => (handled.push(nOf(payload)), 'handled'));
        },
        handled,
      );
      await c.start();
      const letter = await eventually(() => lastDeadLetter(durable));
      await eventually(() => settled(durable));
      await c.stop();

      expect(batches).toBeGreaterThan(0);
      expect([...handled].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => n !== 13),
      );
      expect(letter).toMatchObject({
        durable,
        subject,
        error: 'thirteen is refused',
        event: JSON.stringify({ n: 13 }),
      });
      expect(c.deadLetters).toBe(1);
    },
  );
});
