import { BoundedMap } from '../src/bounded-map';
import { KeyedBatchQueue, type QueuedItem } from '../src/keyed-queue';

describe('BoundedMap', () => {
  it('when more keys are set than the bound, then the one set longest ago goes and the size stays at the bound', () => {
    const map = new BoundedMap<string, number>(3);
    for (let i = 0; i < 1000; i++) map.set(`k${i}`, i);
    expect(map.size).toBe(3);
    expect([map.get('k996'), map.get('k997'), map.get('k998'), map.get('k999')]).toEqual([undefined, 997, 998, 999]);
  });

  it('when a key is set again, then it counts as new and another goes first', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect([map.has('a'), map.has('b'), map.get('a'), map.get('c')]).toEqual([true, false, 3, 4]);
  });

  it('when the bound is not a positive integer, then it is refused', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
    expect(() => new BoundedMap(1.5)).toThrow(RangeError);
  });
});

// A batch's callers are settled inside it; the queue lets go of the key once the batch's promise has settled.
const queueSettled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('KeyedBatchQueue', () => {
  it('when items arrive while a batch runs, then batchable ones run together, in order', async () => {
    const queue = new KeyedBatchQueue();
    const batches: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const apply = async (batch: Array<QueuedItem<string, string>>) => {
      batches.push(batch.map((w) => w.item));
      if (batches.length === 1) await held;
      batch.forEach((w) => w.resolve(`${w.item}!`));
    };
    const first = queue.submit('a', 'w1', { batchable: false, apply });
    const rest = [
      queue.submit('a', 'e1', { batchable: true, apply }),
      queue.submit('a', 'e2', { batchable: true, apply }),
      queue.submit('a', 'w2', { batchable: false, apply }),
      queue.submit('a', 'e3', { batchable: true, apply }),
    ];
    const other = queue.submit('b', 'x', { batchable: false, apply });
    expect(await other).toBe('x!');
    await queueSettled();
    expect(queue.activeKeys).toBe(1);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(['w1!', 'e1!', 'e2!', 'w2!', 'e3!']);
    expect(batches).toEqual([['w1'], ['x'], ['e1', 'e2'], ['w2'], ['e3']]);
    await queueSettled();
    expect(queue.activeKeys).toBe(0);
  });

  it('when a batch throws, then the items it left are refused with that error and the next batch runs', async () => {
    const queue = new KeyedBatchQueue();
    const boom = new Error('boom');
    const failing = queue.submit<string, string>('a', 'x', {
      batchable: false,
      apply: async () => {
        throw boom;
      },
    });
    const next = queue.submit<string, string>('a', 'y', {
      batchable: false,
      apply: async (batch) => batch.forEach((w) => w.resolve('ok')),
    });
    await expect(failing).rejects.toBe(boom);
    expect(await next).toBe('ok');
    await queueSettled();
    expect(queue.activeKeys).toBe(0);
  });
});
