import { randomUUID } from 'node:crypto';
import { DurableConsumer, connectEvents, createLogger, type NatsEvents } from '@register/service-kit';
import { eventually, natsUrl, removeDurableConsumers, testEvents } from '@register/testkit';
import { listDeadLetters, replayDeadLetter } from '../src';

const logger = createLogger('dead-letters-test', 'silent');
let events: NatsEvents;
const durable = `test-dlcli-${randomUUID().slice(0, 8)}`;
// The file's connection, so each test runs on its own as well as after the other.
beforeAll(async () => {
  events = await connectEvents(natsUrl(), 'dead-letters-test', logger, {
    name: testEvents().stream,
    prefix: testEvents().prefix,
  });
});
afterAll(async () => {
  await removeDurableConsumers(natsUrl(), [durable]);
  await events.close();
});

describe('register-dead-letters', () => {
  it(
    'when a consumer gave up on an event, ' + 'then list shows it and replay delivers it to the consumer again',
    async () => {
      const subject = `register.test.${randomUUID()}`;
      let failing = true;
      const received: unknown[] = [];
      const consumer = new DurableConsumer({
        events,
        durable,
        filter: subject,
        logger,
        retryDelayMs: 10,
        maxRetryDelayMs: 20,
        maxDeliver: 2,
        handle: async (_s, payload) => {
          if (failing) throw new Error('the database is down');
          received.push(payload);
          return 'handled';
        },
      });
      await consumer.start();
      const event = { id: randomUUID(), type: 'test', data: {} };
      await events.publish(subject, JSON.stringify(event), event.id);

      const [letter] = await eventually(async () => {
        const letters = await listDeadLetters(events, durable);
        return letters.length > 0 ? letters : undefined;
      });
      expect(letter).toMatchObject({
        durable,
        subject,
        deliveries: 2,
        error: 'the database is down',
        event: JSON.stringify(event),
      });

      failing = false;
      await replayDeadLetter(events, letter!.seq);
      await eventually(async () => (received.length > 0 ? true : undefined));
      await consumer.stop();
      expect(received).toEqual([event]);
    },
  );

  it('when the sequence is not a dead letter, then replay refuses it', async () => {
    const ack = await events.js.publish(`${events.prefix}register.test.${randomUUID()}`, '{}');
    await expect(replayDeadLetter(events, ack.seq)).rejects.toThrow(`stream sequence ${ack.seq} is not a dead letter`);
  });
});
