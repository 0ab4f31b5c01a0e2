/** One write waiting in a brief's queue, settled by the batch it is applied in. */
export interface QueuedWrite<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

type Apply<T, R> = (batch: Array<QueuedWrite<T, R>>) => Promise<void>;
interface Entry extends QueuedWrite<unknown, unknown> {
  batchable: boolean;
  apply: Apply<unknown, unknown>;
}

/**
 * Runs the writes of one brief one batch after another within this process. Writes that arrive while one is
 * being applied wait, and the batchable ones among them (edits) are then applied together: decided one after
 * the other in memory and stored with one compare-and-set, so a burst of saves on one letter costs one
 * database write per batch instead of queueing behind one round trip each. Across processes the compare-and-set
 * on the brief's revision serialises them. Waiting writes hold no database connection.
 */
export class BriefWriteQueue {
  private readonly queues = new Map<string, Entry[]>();

  submit<T, R>(key: string, item: T, options: { batchable: boolean; apply: Apply<T, R> }): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const entry = { item, resolve, reject, batchable: options.batchable, apply: options.apply } as unknown as Entry;
      const queue = this.queues.get(key);
      if (queue) {
        queue.push(entry);
        return;
      }
      this.queues.set(key, [entry]);
      void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      let n = 1;
      if (queue[0]!.batchable) while (n < queue.length && queue[n]!.batchable) n++;
      const batch = queue.splice(0, n);
      // `apply` settles every write of its batch; should it throw, the ones it left are refused with that error.
      await batch[0]!.apply(batch).catch((err: unknown) => batch.forEach((w) => w.reject(err)));
    }
    this.queues.delete(key);
  }
}
