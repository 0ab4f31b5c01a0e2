import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyInternalIdentity } from '@register/authz';
import { DomainError } from '@register/problem';
import { InternalClient } from '../src/internal-client';

const SECRET = 'internal-client-open-test-secret-0123456789';

/**
 * `InternalClient.open` (a document's bytes) against a real node:http server whose answers each test picks by
 * path: whole, cut short, stalled, a 5xx, and a keep-alive connection the server drops between two reads.
 */
let server: http.Server;
let base: string;
const seen: Array<{ path: string; identity: boolean; socket: number }> = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
    const token = req.headers['x-internal-identity'];
    seen.push({
      path: req.url ?? '',
      identity: verifyInternalIdentity(SECRET, Array.isArray(token) ? token[0] : token) !== null,
      socket: sockets.get(req.socket)!,
    });
    if (req.url === '/whole') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '10' });
      res.write('01234');
      setImmediate(() => res.end('56789'));
    } else if (req.url === '/cut') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '10' });
      res.write('01234', () => req.socket.destroy());
    } else if (req.url === '/stalled') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '10' });
      res.write('01234');
    } else if (req.url === '/broken') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    } else if (req.url === '/closes-after') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      // The connection looks reusable to the client, but the server closes it right after the answer.
      res.end('ok', () => setImmediate(() => req.socket.destroy()));
    } else res.writeHead(404).end();
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

describe('InternalClient.open', () => {
  it('when the answer arrives whole, then status, headers and bytes are read; the identity is signed', async () => {
    const res = await client().open('/whole');
    expect([res.status, res.header('Content-Type'), res.header('content-length')]).toEqual([
      200,
      'application/pdf',
      '10',
    ]);
    expect((await res.bytes()).toString()).toBe('0123456789');
    expect(seen.at(-1)).toMatchObject({ path: '/whole', identity: true });
  });

  it('when the service cuts the body short, then reading it throws instead of giving part of it', async () => {
    const res = await client().open('/cut');
    expect(res.status).toBe(200);
    await expect(res.bytes()).rejects.toThrow();
  });

  it('when the body stalls past the timeout, then reading it throws', async () => {
    const res = await client(300).open('/stalled');
    const chunks: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of res.body) chunks.push(chunk);
      })(),
    ).rejects.toThrow();
    expect(Buffer.concat(chunks).toString()).toBe('01234');
  });

  it('when the service answers 5xx or is not there, then the caller gets DomainError unavailable', async () => {
    await expect(client().open('/broken')).rejects.toMatchObject({ code: 'unavailable' });
    const away = new InternalClient({ baseUrl: 'http://127.0.0.1:1', secret: SECRET, caller: 'applications' });
    const refused = await away.open('/whole').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'unavailable' });
  });

  it('when a 404 is discarded, then the next read works', async () => {
    const c = client();
    const missing = await c.open('/nothing-here');
    expect(missing.status).toBe(404);
    missing.discard();
    expect((await (await c.open('/whole')).bytes()).toString()).toBe('0123456789');
  });

  it('when the service closed the kept connection, then the read goes out on a new one and succeeds', async () => {
    const c = client();
    expect((await (await c.open('/closes-after')).bytes()).toString()).toBe('ok');
    // The client may not have seen the close yet: either it opens a new connection, or its reuse is reset and
    // the read is sent once more; either way the caller gets the answer.
    const results = [];
    for (let i = 0; i < 20; i++) results.push((await (await c.open('/closes-after')).bytes()).toString());
    expect(results).toEqual(Array(20).fill('ok'));
    const used = seen.filter((s) => s.path === '/closes-after').map((s) => s.socket);
    expect(new Set(used).size).toBe(used.length);
  });
});
