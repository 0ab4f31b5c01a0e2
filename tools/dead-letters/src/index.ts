import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { DEAD_LETTER_PREFIX, type DeadLetter, type NatsEvents } from '@register/service-kit';

/** A dead letter as the stream holds it: its own sequence (what `replay` takes) and the letter. */
export interface StoredDeadLetter extends DeadLetter {
  seq: number;
}

/** Every dead letter still in the stream (EVENTS_MAX_AGE bounds how long), oldest first; optionally of one consumer. */
export async function listDeadLetters(
  events: Pick<NatsEvents, 'js' | 'jsm' | 'stream' | 'prefix'>,
  durable?: string,
): Promise<StoredDeadLetter[]> {
  // An ephemeral pull consumer over the dead-letter subjects (one subject as a string: a list needs NATS 2.10).
  const info = await events.jsm.consumers.add(events.stream, {
    filter_subject: `${events.prefix}${DEAD_LETTER_PREFIX}.${durable ?? '>'}`,
    deliver_policy: DeliverPolicy.All,
    ack_policy: AckPolicy.None,
    inactive_threshold: 60_000_000_000,
  });
  const letters: StoredDeadLetter[] = [];
  try {
    const consumer = await events.js.consumers.get(events.stream, info.name);
    let pending = info.num_pending;
    while (pending > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(pending, 256), expires: 2000 });
      let got = 0;
      for await (const msg of batch) {
        letters.push({ ...msg.json<DeadLetter>(), seq: msg.seq });
        got += 1;
      }
      if (got === 0) break;
      pending -= got;
    }
  } finally {
    await events.jsm.consumers.delete(events.stream, info.name).catch(() => undefined);
  }
  return letters;
}

/**
 * Publishes a dead letter's event again on its original subject, so its consumer gets it once more (every
 * consumer is idempotent by event id, so others that already handled it do nothing). Returns the letter.
 */
export async function replayDeadLetter(
  events: Pick<NatsEvents, 'js' | 'jsm' | 'stream' | 'prefix'>,
  seq: number,
): Promise<StoredDeadLetter> {
  const msg = await events.jsm.streams.getMessage(events.stream, { seq });
  if (!msg || !msg.subject.startsWith(`${events.prefix}${DEAD_LETTER_PREFIX}.`))
    throw new Error(`stream sequence ${seq} is not a dead letter`);
  const letter = { ...msg.json<DeadLetter>(), seq };
  await events.js.publish(events.prefix + letter.subject, letter.event, { msgID: `replay-${seq}-${Date.now()}` });
  return letter;
}
