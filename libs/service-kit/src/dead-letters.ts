import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { DEAD_LETTER_PREFIX, type DeadLetter } from './durable-consumer';
import type { NatsEvents } from './nats';

/** What the dead-letter functions need of the transport: the stream, its prefix, a client and the manager. */
export type DeadLetterStore = Pick<NatsEvents, 'js' | 'jsm' | 'stream' | 'prefix'>;

/** A dead letter as the stream holds it: its own stream sequence (its id for `replay` and `discard`) and the letter. */
export interface StoredDeadLetter extends DeadLetter {
  seq: number;
}

const NANOS_PER_MS = 1_000_000;
const subjectOf = (store: DeadLetterStore, durable?: string) =>
  `${store.prefix}${DEAD_LETTER_PREFIX}.${durable ?? '>'}`;

/**
 * Dead letters still in the stream (EVENTS_MAX_AGE bounds how long), oldest first, optionally of one consumer,
 * after a stream sequence and at most `limit` of them (all when omitted).
 */
export async function listDeadLetters(
  store: DeadLetterStore,
  durable?: string,
  page: { afterSeq?: number; limit?: number } = {},
): Promise<StoredDeadLetter[]> {
  // An ephemeral pull consumer over the dead-letter subjects (one subject as a string: a list needs NATS 2.10).
  const info = await store.jsm.consumers.add(store.stream, {
    filter_subject: subjectOf(store, durable),
    ...(page.afterSeq
      ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: page.afterSeq + 1 }
      : { deliver_policy: DeliverPolicy.All }),
    ack_policy: AckPolicy.None,
    inactive_threshold: 60_000 * NANOS_PER_MS,
  });
  const letters: StoredDeadLetter[] = [];
  const wanted = page.limit ?? Number.POSITIVE_INFINITY;
  try {
    const consumer = await store.js.consumers.get(store.stream, info.name);
    let pending = Math.min(info.num_pending, wanted);
    while (pending > 0) {
      const batch = await consumer.fetch({ max_messages: Math.min(pending, 256), expires: 2000 });
      let got = 0;
      for await (const msg of batch) {
        if (letters.length < wanted) letters.push({ ...msg.json<DeadLetter>(), seq: msg.seq });
        got += 1;
      }
      if (got === 0) break;
      pending -= got;
    }
  } finally {
    await store.jsm.consumers.delete(store.stream, info.name).catch(() => undefined);
  }
  return letters;
}

/** The dead letter at this stream sequence, or null when there is none (never was, replayed or discarded). */
export async function findDeadLetter(store: DeadLetterStore, seq: number): Promise<StoredDeadLetter | null> {
  const msg = await store.jsm.streams.getMessage(store.stream, { seq }).catch(() => null);
  if (!msg || !msg.subject.startsWith(`${store.prefix}${DEAD_LETTER_PREFIX}.`)) return null;
  try {
    return { ...msg.json<DeadLetter>(), seq };
  } catch {
    return null;
  }
}

/** There is no dead letter at this sequence: never was, or replayed or discarded (also by a replay running beside). */
export class NoDeadLetterError extends Error {
  constructor(seq: number) {
    super(`stream sequence ${seq} is not a dead letter`);
  }
}

/**
 * Publishes a dead letter's event again on its original subject, so its consumer gets it once more (every
 * consumer is idempotent by event id, so others that already handled it do nothing), then removes the letter.
 * The publish id is the letter's own: two replays at once publish it once (the stream's duplicate window).
 */
export async function replayDeadLetter(store: DeadLetterStore, seq: number): Promise<StoredDeadLetter> {
  const letter = await findDeadLetter(store, seq);
  if (!letter) throw new NoDeadLetterError(seq);
  await store.js.publish(store.prefix + letter.subject, letter.event, { msgID: `replay-${store.stream}-${seq}` });
  await store.jsm.streams.deleteMessage(store.stream, seq, false).catch(() => undefined);
  return letter;
}

/** Removes a dead letter without replaying it; false when there was none at that sequence. */
export async function discardDeadLetter(store: DeadLetterStore, seq: number): Promise<boolean> {
  if (!(await findDeadLetter(store, seq))) return false;
  return store.jsm.streams.deleteMessage(store.stream, seq, false).catch(() => false);
}

/** How many dead letters each consumer has in the stream (read from the stream's subject counts, no message read). */
export async function countDeadLetters(
  store: Pick<NatsEvents, 'jsm' | 'stream' | 'prefix'>,
): Promise<Record<string, number>> {
  const prefix = `${store.prefix}${DEAD_LETTER_PREFIX}.`;
  const info = await store.jsm.streams.info(store.stream, { subjects_filter: `${prefix}>` });
  const counts: Record<string, number> = {};
  for (const [subject, n] of Object.entries(info.state.subjects ?? {})) counts[subject.slice(prefix.length)] = n;
  return counts;
}
