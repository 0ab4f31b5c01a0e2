import http from 'node:http';
import { freePort } from '@register/embedded';
import { serve, startService, type TestService } from '@register/testkit';
import { start } from '../src/main';
import type { Context } from '../src/context';

// ADR 0274: the route table is one lookup in front of Express's routes; what it leaves goes to them as before.
let upstream: Awaited<ReturnType<typeof serve>>;
let gateway: TestService<Context>;
let metricsUrl: string;
const forwarded: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  upstream = await serve(
    http.createServer((req, res) => {
      forwarded.push({ method: req.method ?? '', url: req.url ?? '' });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    }),
  );
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  gateway = await startService(start, {
    name: 'gateway',
    env: {
      REFERENCE_URL: upstream.url,
      APPLICATIONS_URL: upstream.url,
      DOCUMENTS_URL: upstream.url,
      LETTERS_URL: upstream.url,
      AUDIT_URL: upstream.url,
      METRICS_PORT: String(metricsPort),
    },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const drafter = { 'X-Subject': '900000001', 'X-Role': 'drafter' };
const send = (method: string, path: string, headers: Record<string, string> = drafter) =>
  fetch(`${gateway.url}${path}`, { method, headers });
const forwardedSince = (n: number) => forwarded.slice(n);

describe('the route table (ADR 0274)', () => {
  it('when a rule late in the table matches, then the service gets it, also with a trailing slash', async () => {
    const before = forwarded.length;
    expect((await send('POST', '/api/v1/applications/a1/submit')).status).toBe(200);
    expect((await send('POST', '/api/v1/applications/a1/submit/')).status).toBe(200);
    expect(
      (await send('PUT', '/api/v1/admin/org-template/zorg', { 'X-Subject': '900000002', 'X-Role': 'admin' })).status,
    ).toBe(200);
    expect(forwardedSince(before)).toEqual([
      { method: 'POST', url: '/api/v1/applications/a1/submit' },
      { method: 'POST', url: '/api/v1/applications/a1/submit/' },
      { method: 'PUT', url: '/api/v1/admin/org-template/zorg' },
    ]);
  });

  it('when the path differs in case or has a segment too many, then it is 404 and nothing is forwarded', async () => {
    const before = forwarded.length;
    expect((await send('POST', '/api/v1/Applications/a1/submit')).status).toBe(404);
    expect((await send('POST', '/api/v1/applications/a1/submit/again')).status).toBe(404);
    expect(forwardedSince(before)).toEqual([]);
  });

  it('when a HEAD names a GET rule, then it is that rule and the service gets a HEAD', async () => {
    const before = forwarded.length;
    expect((await send('HEAD', '/api/v1/applications')).status).toBe(200);
    expect(forwardedSince(before)).toEqual([{ method: 'HEAD', url: '/api/v1/applications' }]);
  });

  it('when a path parameter does not decode, then the answer is 400 and nothing is forwarded', async () => {
    const before = forwarded.length;
    const res = await send('GET', '/api/v1/applications/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(forwardedSince(before)).toEqual([]);
  });

  it('when an OPTIONS is no preflight, then the answer lists the methods the path allows, as Express did', async () => {
    const before = forwarded.length;
    const res = await send('OPTIONS', '/api/v1/applications');
    expect([res.status, res.headers.get('allow'), await res.text()]).toEqual([
      200,
      'GET, HEAD, POST',
      'GET, HEAD, POST',
    ]);
    expect(forwardedSince(before)).toEqual([]);
  });

  it('when a request went through the table, then its metric names the rule, not the path', async () => {
    await send('POST', '/api/v1/applications/metric-probe/submit');
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toContain('route="/api/v1/applications/:id/submit"');
    expect(text).not.toContain('metric-probe');
  });
});
