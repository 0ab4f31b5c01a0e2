/**
 * Runs the writes of one brief one after another within this process. The row lock (SELECT … FOR UPDATE)
 * is what serialises writes across processes; queueing here first keeps waiting writes from each holding a
 * database connection while they wait for that lock, so a burst on one letter cannot starve the pool.
 */
export class BriefWriteQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
