/** One item waiting in a key's queue, settled by the batch it is applied in. */
export interface QueuedItem<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export type ApplyBatch<T, R> = (batch: Array<QueuedItem<T, R>>) => Promise<void>;

interface Entry extends QueuedItem<unknown, unknown> {
  batchable: boolean;
  apply: ApplyBatch<unknown, unknown>;
}

/**
 * Runs the work submitted under one key one batch after another within this process. Items that arrive while one
 * batch is applied wait, and the consecutive batchable ones among them are then applied together. A key's queue
 * exists only while it has work, so the map holds no more keys than there are items in flight. Waiting items
 * hold nothing but their promise (no database connection).
 */
export class KeyedBatchQueue {
  private readonly queues = new Map<string, Entry[]>();

  /** Keys with work queued or running. */
  get activeKeys(): number {
    return this.queues.size;
  }

  submit<T, R>(key: string, item: T, options: { batchable: boolean; apply: ApplyBatch<T, R> }): Promise<R> {
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
      // `apply` settles every item of its batch; should it throw, the ones it left are refused with that error.
      await batch[0]!.apply(batch).catch((err: unknown) => batch.forEach((w) => w.reject(err)));
    }
    this.queues.delete(key);
  }
}
