import { FaultRegistry } from '../src/faults/faults';

describe('FaultRegistry', () => {
  it('when a fault has forMs, then it matches until that much time has passed', () => {
    let now = 1_000;
    const registry = new FaultRegistry(() => now);
    registry.add({ path: '*', mode: 'status', status: 500, forMs: 100 });

    const during = registry.take('GET', '/zaken/api/v1/zaken');
    now += 100;
    const after = registry.take('GET', '/zaken/api/v1/zaken');

    expect(during?.applied).toBe(1);
    expect(after).toBeUndefined();
    expect(registry.list()).toEqual([]);
  });

  it.each([
    ['/zaken/api/v1/zaken', 'POST', '/zaken/api/v1/zaken', true],
    ['/zaken/api/v1/zaken', 'POST', '/zaken/api/v1/zaken/0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01', false],
    ['/zaken/api/v1/*', 'POST', '/zaken/api/v1/statussen', true],
    ['/zaken/api/v1/*', 'POST', '/documenten/api/v1/enkelvoudiginformatieobjecten', false],
    ['*', 'DELETE', '/catalogi/api/v1/catalogussen', true],
  ])('when the fault path is %s, then %s %s matches: %s', (path, method, requestPath, matches) => {
    const registry = new FaultRegistry();
    registry.add({ path, mode: 'refuse' });

    expect(registry.take(method, requestPath) !== undefined).toBe(matches);
  });

  it('when a fault has a count, then it is used up and removed', () => {
    const registry = new FaultRegistry();
    registry.add({ path: '*', mode: 'refuse', count: 2 });

    const hits = [registry.take('GET', '/a'), registry.take('GET', '/a'), registry.take('GET', '/a')];

    expect(hits.map((hit) => hit?.applied)).toEqual([1, 2, undefined]);
  });

  it.each([
    [{ path: '*', mode: 'delay' }, 'delayMs'],
    [{ path: '*', mode: 'refuse', count: 1, forMs: 10 }, 'forMs'],
    [{ path: '*', mode: 'explode' }, 'mode'],
    [{ path: '*', mode: 'status', status: 200 }, 'status'],
  ])('when the spec is %j, then it is refused, naming %s', (spec, field) => {
    const registry = new FaultRegistry();

    expect(() => registry.add(spec as never)).toThrow(field);
  });

  it(
    'when requests are held, then they are listed until released, ' + 'of one fault or all, and release says how many',
    async () => {
      const registry = new FaultRegistry();
      const a = registry.add({ path: '/a', mode: 'hold' });
      const b = registry.add({ path: '/b', mode: 'hold' });
      const settled: string[] = [];
      for (const [fault, path] of [
        [a, '/a'],
        [a, '/a'],
        [b, '/b'],
      ] as const)
        void registry.hold(fault.id, 'GET', path).released.then(() => settled.push(path));

      expect(registry.held().map((h) => h.path)).toEqual(['/a', '/a', '/b']);
      expect(await registry.waitForHeld(a.id, 2)).toHaveLength(2);
      expect(registry.release(a.id)).toBe(2);
      await Promise.resolve();
      expect(settled).toEqual(['/a', '/a']);
      expect(registry.held().map((h) => h.path)).toEqual(['/b']);
      expect(registry.release()).toBe(1);
      expect(registry.release()).toBe(0);
    },
  );

  it('when a holding fault is removed or all are cleared, then what it holds goes on', async () => {
    const registry = new FaultRegistry();
    const used = registry.add({ path: '*', mode: 'hold', count: 1 });
    registry.take('GET', '/x');
    const first = registry.hold(used.id, 'GET', '/x');
    const other = registry.add({ path: '*', mode: 'hold' });
    const second = registry.hold(other.id, 'GET', '/y');

    // Used up (count 1), it holds a request still: removing it releases that one.
    expect(registry.remove(used.id)).toBe(true);
    await first.released;
    registry.clear();
    await second.released;
    expect(registry.held()).toEqual([]);
    expect(registry.remove(used.id)).toBe(false);
  });

  it("when a held request's client goes away, then the held request says so", () => {
    const registry = new FaultRegistry();
    const fault = registry.add({ path: '*', mode: 'hold' });
    const held = registry.hold(fault.id, 'POST', '/z');

    held.clientGone();

    expect(registry.held(fault.id)).toEqual([expect.objectContaining({ clientGone: true })]);
  });
});
