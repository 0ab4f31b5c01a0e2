import { RequestLoad } from '../src/request-load';

describe('RequestLoad', () => {
  it('when requests are counted, then the rate covers the last second only and empties as the quarters pass', () => {
    let now = 10_000;
    const load = new RequestLoad(() => now);
    expect(load.perSecond()).toBe(0);
    for (let i = 0; i < 30; i++) load.count();
    now += 300;
    for (let i = 0; i < 20; i++) load.count();
    expect(load.perSecond()).toBe(50);
    // 800 ms after the first 30: all still inside the last second.
    now += 500;
    expect(load.perSecond()).toBe(50);
    // The quarter of the first 30 has gone by; the 20 remain.
    now += 250;
    expect(load.perSecond()).toBe(20);
    now += 5000;
    expect(load.perSecond()).toBe(0);
  });
});
