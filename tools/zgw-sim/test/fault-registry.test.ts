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
});
