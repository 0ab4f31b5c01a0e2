import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { startHaproxy, type Balancer } from '../src/cluster/haproxy';

// The cluster's load balancer (npm run cluster) with no server ready, as while PostgreSQL restarts: its own 503 is
// the problem document every service answers, and a client that sent a body reads it (no reset connection).
let dir: string;
let balancer: Balancer;
let base: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'register-haproxy-'));
  const port = await freePort();
  // A server nothing listens on: never ready.
  const nobody = await freePort();
  balancer = await startHaproxy(dir, [{ name: 'api', port, servers: [`127.0.0.1:${nobody}`] }], path.join(dir, 'log'));
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await balancer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the load balancer with no server ready', () => {
  it('when a request arrives, then 503, an unavailable problem document of its path and Retry-After', async () => {
    const res = await fetch(`${base}/api/v1/stamdata?limit=1`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      type: '/problems/unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: expect.stringContaining('retry later'),
      instance: '/api/v1/stamdata',
      correlationId: null,
    });
  });

  it('when uploads that fit its buffer arrive, then each is answered with the 503, none reset', async () => {
    // A body up to one buffer (16 KiB) is read before the answer; a larger one is answered after its first buffer.
    const form = () => {
      const body = new FormData();
      body.set('wizardId', 'intake');
      body.set('file', new Blob([Buffer.alloc(4000, 'x')], { type: 'application/pdf' }), 'a.pdf');
      return body;
    };
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${base}/api/v1/uploads`, { method: 'POST', body: form() }).then(
          async (res) => `${res.status} ${(await res.json()).type}`,
          (err: Error) => `no answer: ${err.message}`,
        ),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => '503 /problems/unavailable'));
  });
});
