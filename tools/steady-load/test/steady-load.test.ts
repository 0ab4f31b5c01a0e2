import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { steadyLoad, summary } from '../src';

interface Seen {
  at: number;
  method: string;
  url: string;
  body: string;
  /** Whether onMeasuring had been called when it arrived. */
  afterMeasuring: boolean;
}

let server: http.Server;
let origin: string;
const seen: Seen[] = [];
let measuringCalled = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ at: performance.now(), method: req.method!, url: req.url!, body, afterMeasuring: measuringCalled });
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end('x'.repeat(30_000));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  measuringCalled = false;
});

describe('steadyLoad', () => {
  it(
    'when given a rate and a duration, then it sends rate × seconds requests, ' +
      'none before its turn (request i no earlier than i × 1000/rate ms into the load), and reports each one',
    async () => {
      const called = performance.now();
      const r = await steadyLoad({ url: `${origin}/a?q=1`, rate: 50, seconds: 1 });
      expect(r).toMatchObject({ requests: 50, errors: 0 });
      expect(seen).toHaveLength(50);
      expect(seen.every((s) => s.method === 'GET' && s.url === '/a?q=1')).toBe(true);
      // Request i leaves no earlier than i × 20 ms after the load starts (which is after the call), so at most k
      // requests can have arrived k × 20 ms after the call: the k-th arrival (from 0) comes no earlier. The
      // generator may send a request up to 1 ms before its turn (it does not sleep for less), and a timer may fire
      // up to 1 ms early.
      const arrivals = seen.map((s) => s.at - called).sort((a, b) => a - b);
      const early = arrivals.map((at, k) => [k, at] as const).filter(([k, at]) => at < k * 20 - 2);
      expect(early).toEqual([]);
      expect(r.p50).toBeGreaterThan(0);
      expect(r.p99).toBeGreaterThanOrEqual(r.p50);
      expect(r.max).toBeGreaterThanOrEqual(r.p99);
    },
  );

  it(
    'when given requests, then they are sent in turn with their methods, ' +
      'headers and bodies, and answers of 400 and above count as errors',
    async () => {
      const r = await steadyLoad({
        url: origin,
        rate: 100,
        seconds: 0.3,
        requests: [
          { method: 'PUT', path: '/doc', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' },
          { path: '/missing' },
        ],
      });
      expect(r).toMatchObject({ requests: 30, errors: 15 });
      expect(seen.filter((s) => s.method === 'PUT' && s.url === '/doc' && s.body === '{"a":"é"}')).toHaveLength(15);
      expect(seen.filter((s) => s.method === 'GET' && s.url === '/missing')).toHaveLength(15);
    },
  );

  it('when given a function of the request number, then request i is what it made of i', async () => {
    await steadyLoad({ url: origin, rate: 100, seconds: 0.2, request: (i) => ({ path: `/n/${i}` }) });
    expect(seen.map((s) => s.url).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `/n/${i}`).sort());
  });

  it(
    'when given a warm-up, ' + 'then its requests go first at the same rate and only the ones after it are reported',
    async () => {
      const r = await steadyLoad({
        url: origin,
        rate: 100,
        seconds: 0.2,
        warmSeconds: 0.3,
        requests: [{ path: '/missing' }, { path: '/ok' }],
      });
      expect(seen).toHaveLength(50);
      // 20 measured, every other one a 404: had the warm-up's 30 counted, there would be 50 and 25 errors.
      expect(r).toMatchObject({ requests: 20, errors: 10 });
    },
  );

  it(
    'when given a warm-up and onMeasuring, then it is called once, after the warm-up has had its time ' +
      'and before any measured request goes out',
    async () => {
      const calls: number[] = [];
      const called = performance.now();
      const r = await steadyLoad({
        url: origin,
        rate: 100,
        seconds: 0.3,
        warmSeconds: 0.3,
        request: (i) => ({ path: `/n/${i}` }),
        onMeasuring: () => {
          calls.push(performance.now() - called);
          measuringCalled = true;
        },
      });
      expect(r.requests).toBe(30);
      expect(calls).toHaveLength(1);
      // The warm-up's 30 go out 10 ms apart from a start after the call, the measured part begins at 300 ms (the
      // generator sends up to 1 ms before a turn, and a timer may fire up to 1 ms early).
      expect(calls[0]).toBeGreaterThanOrEqual(298);
      // The generator waits for the callback before the first measured request: none arrived before it. (Warm-up
      // requests may arrive on either side: this process may read them after the generator's message.)
      const index = (s: Seen) => Number(s.url.slice('/n/'.length));
      expect(seen).toHaveLength(60);
      expect(seen.filter((s) => index(s) >= 30 && !s.afterMeasuring).map((s) => s.url)).toEqual([]);
    },
  );

  it('when given onMeasuring and no warm-up, then it is called once, before the first request goes out', async () => {
    const calls: number[] = [];
    const r = await steadyLoad({
      url: origin,
      rate: 100,
      seconds: 0.3,
      request: (i) => ({ path: `/n/${i}` }),
      onMeasuring: () => {
        calls.push(seen.length);
        measuringCalled = true;
      },
    });
    expect(r.requests).toBe(30);
    expect(calls).toEqual([0]);
    expect(seen).toHaveLength(30);
    expect(seen.every((s) => s.afterMeasuring)).toBe(true);
  });

  it('when the target refuses connections, then every request counts as an error and the load still ends', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await steadyLoad({ url: `http://127.0.0.1:${port}/`, rate: 100, seconds: 0.1 })).toMatchObject({
      requests: 0,
      errors: 10,
    });
  });
});

describe('summary', () => {
  it('when given latencies, then p50 and p99 are read from them in numeric order', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, not sorted
    expect(summary(latencies, 2)).toEqual({ requests: 100, errors: 2, p50: 51, p99: 100, max: 100 });
    expect(summary([9, 10, 100])).toMatchObject({ p50: 10, p99: 100 });
  });
});
