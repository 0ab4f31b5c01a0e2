import { randomUUID } from 'node:crypto';
import { eventually, natsUrl, removeDurableConsumers, testEvents } from '@register/testkit';
import { DEAD_LETTER_PREFIX, DurableConsumer, type DeadLetter } from '../src/durable-consumer';
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

function consumer(handle: (subject: string, payload: unknown) => Promise<'handled'>, subject: string) {
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
      retryDelayMs: 20,
      maxRetryDelayMs: 50,
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
  it('when a handler keeps failing, then after maxDeliver deliveries the event goes to the dead-letter subject, once', async () => {
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
  });

  it('when a handler fails twice and then succeeds, then the event is handled and nothing is dead-lettered', async () => {
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
  });

  it('when the events are opened, then the stream keeps an event at most EVENTS_MAX_AGE (seven days by default)', async () => {
    const info = await events.jsm.streams.info(events.stream);
    expect(info.config.max_age).toBe(DEFAULT_EVENTS_MAX_AGE_MS * 1_000_000);
  });
});
