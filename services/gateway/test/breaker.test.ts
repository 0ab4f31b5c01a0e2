import http from 'node:http';
import { eventually, serve, startNeighbour, startService, type Neighbour, type TestService } from '@register/testkit';
import { start } from '../src/main';
import type { Context } from '../src/context';

// ADR 0015: a service that stops answering costs its callers seconds, not minutes.
let reference: Neighbour;
let relay: Awaited<ReturnType<typeof countingRelay>>;
let gateway: TestService<Context>;

/** A pass-through to `target` that counts the requests it passes on, by path without the query. */
async function countingRelay(target: string) {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (a) => {
        res.writeHead(a.statusCode ?? 502, a.headers);
        a.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // The gateway gave up (its timeout): the call to the frozen service goes too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  const served = await serve(server);
  return { url: served.url, count: (path: string) => counts.get(path) ?? 0, close: served.close };
}

beforeAll(async () => {
  reference = await startNeighbour('reference');
  relay = await countingRelay(reference.url);
  // Only the reference routes are called; the other services are nowhere (their routes would answer 503 at once).
  const nowhere = 'http://127.0.0.1:9';
  gateway = await startService(start, {
    name: 'gateway',
    env: {
      REFERENCE_URL: relay.url,
      APPLICATIONS_URL: nowhere,
      DOCUMENTS_URL: nowhere,
      LETTERS_URL: nowhere,
      AUDIT_URL: nowhere,
    },
  });
});
afterAll(async () => {
  reference.resume();
  await gateway.close();
  await relay.close();
  await reference.close();
});

async function flags(): Promise<{ status: number; ms: number; body: { type?: string } | null }> {
  const t0 = performance.now();
  const res = await fetch(`${gateway.url}/api/v1/flags`, { headers: { 'X-Subject': '900000001' } });
  const text = await res.text();
  return {
    status: res.status,
    ms: performance.now() - t0,
    body: text ? (JSON.parse(text) as { type?: string }) : null,
  };
}

describe('a service that stops answering (SIGSTOP)', () => {
  it(
    'when reference is frozen, then its routes answer 503 after the 10 s without a byte, ' +
      'then without asking it while the breaker is open, and recover after SIGCONT',
    async () => {
      const breaker = gateway.context.upstreams.reference.breaker;
      expect((await flags()).status).toBe(200);

      reference.pause();
      const first = await flags();
      expect(first.status).toBe(503);
      expect(first.body?.type).toBe('/problems/unavailable');
      expect(first.ms).toBeGreaterThan(9_000);
      expect(breaker.isOpen()).toBe(true);

      // Still frozen: a request passed on would wait its 10 s again; the open breaker answers without passing it.
      const asked = relay.count('/api/v1/flags');
      const second = await flags();
      expect(second.status).toBe(503);
      expect(second.body?.type).toBe('/problems/unavailable');
      expect(relay.count('/api/v1/flags')).toBe(asked);

      // Only a probe of /health that answers closes the breaker; until then every answer is the breaker's 503.
      reference.resume();
      const meanwhile: number[] = [];
      await eventually(async () => {
        const again = await flags();
        if (again.status !== 200) meanwhile.push(again.status);
        return again.status === 200 ? true : undefined;
      }, 30_000);
      expect(meanwhile.every((status) => status === 503)).toBe(true);
      expect(breaker.isOpen()).toBe(false);
    },
    60_000,
  );
});
