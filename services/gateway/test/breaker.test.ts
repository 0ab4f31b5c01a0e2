import { startNeighbour, startService, type Neighbour, type TestService } from '@register/testkit';
import { start } from '../src/main';
import type { Context } from '../src/context';

// ADR 0015: a service that stops answering costs its callers seconds, not minutes.
let reference: Neighbour;
let gateway: TestService<Context>;
beforeAll(async () => {
  reference = await startNeighbour('reference');
  // Only the reference routes are called; the other services are nowhere (their routes would answer 503 at once).
  const nowhere = 'http://127.0.0.1:9';
  gateway = await startService(start, {
    name: 'gateway',
    env: {
      REFERENCE_URL: reference.url,
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
  await reference.close();
});

async function flags(): Promise<{ status: number; ms: number; body: { type?: string } | null }> {
  const t0 = performance.now();
  const res = await fetch(`${gateway.url}/api/v1/flags`, {
    headers: { 'X-Subject': '900000001' },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    ms: performance.now() - t0,
    body: text ? (JSON.parse(text) as { type?: string }) : null,
  };
}

describe('a service that stops answering (SIGSTOP)', () => {
  it('when reference is frozen, then its routes answer 503 within 10 s, then at once while the breaker is open, and recover after SIGCONT', async () => {
    expect((await flags()).status).toBe(200);

    reference.pause();
    const first = await flags();
    expect(first.status).toBe(503);
    expect(first.body?.type).toBe('/problems/unavailable');
    expect(first.ms).toBeLessThan(11_000);
    expect(first.ms).toBeGreaterThan(9_000);

    const second = await flags();
    expect(second.status).toBe(503);
    expect(second.ms).toBeLessThan(500);

    reference.resume();
    const recovered = Date.now();
    for (;;) {
      const again = await flags();
      if (again.status === 200) break;
      expect(again.status).toBe(503);
      expect(Date.now() - recovered).toBeLessThan(6_000);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);
});
