import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyInternalIdentity } from '@register/authz';
import { DomainError } from '@register/problem';
import { runWithContext } from '../src/context';
import { InternalClient } from '../src/internal-client';

const SECRET = 'internal-client-request-test-secret-01234';

/**
 * `InternalClient.request` (a JSON call to another service) against a real node:http server whose answers each test
 * picks by path: JSON, empty, a 4xx, a 5xx, stalled, cut short, and a keep-alive connection the server drops.
 */
interface Seen {
  method: string;
  path: string;
  body: string;
  contentType: string | undefined;
  correlationId: string | undefined;
  caller: string | null;
  socket: number;
}
let server: http.Server;
let base: string;
const seen: Seen[] = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const token = req.headers['x-internal-identity'];
      const claims = verifyInternalIdentity(SECRET, Array.isArray(token) ? token[0] : token);
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString(),
        contentType: req.headers['content-type'],
        correlationId: req.headers['x-correlation-id'] as string | undefined,
        caller: claims?.service?.service ?? null,
        socket: sockets.get(req.socket)!,
      });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/echo') json(201, { got: JSON.parse(Buffer.concat(chunks).toString() || 'null') });
      else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/refused') json(422, { title: 'no' });
      else if (req.url === '/broken') json(503, { title: 'down' });
      else if (req.url === '/stalled') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' });
        res.write('{"rows":');
      } else if (req.url === '/cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20' });
        res.write('{"rows":', () => req.socket.destroy());
      } else if (req.url === '/closes-after') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
        // The connection looks reusable to the client, but the server closes it right after the answer.
        res.end('{"ok":true}', () => setImmediate(() => req.socket.destroy()));
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (timeoutMs = 2000) =>
  new InternalClient({ baseUrl: base, secret: SECRET, caller: 'applications', timeoutMs });

describe('InternalClient.request', () => {
  it('when a JSON body is posted, then the service gets it with the signed caller and the correlation id', async () => {
    const res = await runWithContext({ correlationId: 'c0ffee00-0000-4000-8000-000000000001' }, () =>
      client().request<{ got: unknown }>('POST', '/echo', { documents: ['a', 'b'] }),
    );
    expect(res).toEqual({ status: 201, body: { got: { documents: ['a', 'b'] } } });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      path: '/echo',
      body: '{"documents":["a","b"]}',
      contentType: 'application/json',
      correlationId: 'c0ffee00-0000-4000-8000-000000000001',
      caller: 'applications',
      socket: expect.any(Number),
    });
  });

  it('when the answer has no body or is a 4xx, then the status comes back with the body, null when empty', async () => {
    expect(await client().request('GET', '/empty')).toEqual({ status: 204, body: null });
    expect(await client().request('GET', '/refused')).toEqual({ status: 422, body: { title: 'no' } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', body: '', contentType: undefined });
  });

  it('when the service answers 5xx or is not there, then the caller gets DomainError unavailable', async () => {
    await expect(client().request('GET', '/broken')).rejects.toMatchObject({ code: 'unavailable' });
    const away = new InternalClient({ baseUrl: 'http://127.0.0.1:1', secret: SECRET, caller: 'applications' });
    const refused = await away.request('POST', '/echo', {}).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'unavailable' });
  });

  it('when the answer stalls past the timeout or is cut short, then the caller gets unavailable', async () => {
    await expect(client(300).request('GET', '/stalled')).rejects.toMatchObject({ code: 'unavailable' });
    await expect(client().request('GET', '/cut')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('when the service closed the kept connection, then a GET goes out on a new one and succeeds', async () => {
    const c = client();
    const results = [];
    // The client may not have seen the close yet: either it opens a new connection, or its reuse is reset and the
    // GET is sent once more; either way the caller gets the answer, and no connection carries two requests.
    for (let i = 0; i < 20; i++) results.push((await c.request('GET', '/closes-after')).body);
    expect(results).toEqual(Array(20).fill({ ok: true }));
    const used = seen.filter((s) => s.path === '/closes-after').map((s) => s.socket);
    expect(new Set(used).size).toBe(used.length);
  });

  it('when a write meets a connection the service closed, then it is not sent twice', async () => {
    const c = client();
    const before = seen.filter((s) => s.path === '/closes-after' && s.method === 'POST').length;
    const outcomes = [];
    for (let i = 0; i < 20; i++)
      outcomes.push(
        await c.request('POST', '/closes-after', { i }).then(
          () => 'answered',
          (err: unknown) => (err instanceof DomainError && err.code === 'unavailable' ? 'unavailable' : 'other'),
        ),
      );
    const posts = seen.filter((s) => s.path === '/closes-after' && s.method === 'POST').slice(before);
    // Each write reached the service at most once: as many arrivals as answers, none of them repeated.
    expect(outcomes).not.toContain('other');
    expect(posts.length).toBe(outcomes.filter((o) => o === 'answered').length);
    expect(new Set(posts.map((p) => p.body)).size).toBe(posts.length);
  });
});
