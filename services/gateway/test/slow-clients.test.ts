import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import net from 'node:net';
import { eventually, startService, type TestService } from '@register/testkit';
import { SERVICES } from '@register/launcher';
import type { Context } from '../src/context';
import { start } from '../src/main';
import type { UpstreamName } from '../src/proxy/upstream-name';
import { startSystem, users, type TestSystem } from './support/system';

// ADR 0015: a request body that arrives too slowly ends with one 408 and never counts against the service.
// The gateway under test runs in this process (its agents and breakers can be read), in front of a whole system.
// Its proxy timeout is shorter than a stall lasts, so a stall that counted against a service would open its breaker.
const PROXY_TIMEOUT_MS = 2000;
const WINDOW_MS = 3000;

let sys: TestSystem;
let gateway: TestService<Context>;
beforeAll(async () => {
  sys = await startSystem();
  const urls = Object.fromEntries(
    SERVICES.filter((s) => s !== 'gateway').map((s) => [`${s.toUpperCase()}_URL`, sys.system.url(s)]),
  );
  gateway = await startService(start, {
    name: 'gateway_slow',
    env: {
      ...urls,
      INTERNAL_IDENTITY_SECRET: sys.system.secret,
      PROXY_TIMEOUT_MS: String(PROXY_TIMEOUT_MS),
      STREAM_IDLE_TIMEOUT_MS: String(PROXY_TIMEOUT_MS),
      REQUEST_BODY_WINDOW_MS: String(WINDOW_MS),
      REQUEST_BODY_MIN_RATE: '1024',
    },
  });
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await sys?.close();
}, 60_000);

interface SlowClient {
  /** Everything the gateway sent back, once it closed the connection. */
  answer: Promise<string>;
  /** Milliseconds from the first byte sent to the connection's close. */
  closedAfter: Promise<number>;
}

/** A request whose head arrives whole and whose body stops after `sent` bytes, or trickles a byte at a time. */
function slowClient(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  mode: 'stall' | 'trickle',
): SlowClient {
  const socket = net.connect(new URL(gateway.url).port as unknown as number, '127.0.0.1');
  const started = Date.now();
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: gateway.test',
    ...Object.entries({ ...headers, 'Content-Length': String(body.length) }).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  const chunks: Buffer[] = [];
  let trickle: NodeJS.Timeout | undefined;
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head + body.slice(0, Math.floor(body.length / 2)));
  if (mode === 'trickle') {
    let at = Math.floor(body.length / 2);
    trickle = setInterval(() => {
      if (at < body.length - 1 && !socket.destroyed) socket.write(body[at++]!);
    }, 200);
  }
  const done = closed.then(() => clearInterval(trickle));
  return {
    answer: done.then(() => Buffer.concat(chunks).toString('latin1')),
    closedAfter: done.then(() => Date.now() - started),
  };
}

function multipartStart(): { type: string; body: string } {
  const boundary = 'slow-client-boundary';
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="traag.pdf"\r\nContent-Type: ` +
    `application/pdf\r\n\r\n%PDF-1.4\n${'x'.repeat(60_000)}\r\n--${boundary}--\r\n`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: part('wizardId', 'intake') + part('categoryId', 'overig') + file,
  };
}

const json = { 'Content-Type': 'application/json' };
const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };
const upload = multipartStart();
/**
 * A route with a body on each service. Audit has none: a GET that carries one is proxied all the same, and the
 * service answers it without reading it; the gateway then frees the socket once the body proves too slow.
 */
const SLOW_ROUTES: Array<[UpstreamName, string, string, Record<string, string>, string]> = [
  [
    'applications',
    'POST',
    '/api/v1/change-requests',
    { ...users.drafter, ...json },
    JSON.stringify({ telefoon: '0612345678', pad: 'x'.repeat(4000) }),
  ],
  ['documents', 'POST', '/api/v1/uploads', { ...users.drafter, 'Content-Type': upload.type }, upload.body],
  [
    'letters',
    'PUT',
    '/api/v1/brief',
    { ...users.drafter, ...json },
    JSON.stringify({ sections: [], pad: 'x'.repeat(4000) }),
  ],
  [
    'reference',
    'PUT',
    '/api/v1/admin/flags/herregistratie-aanvragen',
    { ...admin, ...json },
    JSON.stringify({ enabled: true, pad: 'x'.repeat(4000) }),
  ],
  ['audit', 'GET', '/api/v1/admin/audit', { ...admin, ...json }, JSON.stringify({ pad: 'x'.repeat(4000) })],
];
/** An ordinary read of each service, as other portal users keep making them. */
const ORDINARY: Array<[UpstreamName, string, Record<string, string>]> = [
  ['applications', '/api/v1/applications', users.drafter],
  ['documents', '/api/v1/uploads/status?localIds=none', users.drafter],
  ['letters', '/api/v1/brief', users.drafter],
  ['reference', '/api/v1/flags', users.drafter],
  ['audit', '/api/v1/admin/audit?limit=1', admin],
];

function statusLines(raw: string): string[] {
  return raw.match(/HTTP\/1\.1 \d{3}[^\r]*/g) ?? [];
}

function problemType(raw: string): string | null {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  try {
    return (JSON.parse(body) as { type?: string }).type ?? null;
  } catch {
    return null;
  }
}

const busySockets = (name: UpstreamName) => gateway.context.upstreams[name].busyConnections();

describe('slow request bodies at the gateway (ADR 0015)', () => {
  it(
    'when stalled and trickling bodies reach a route of every service, ' +
      'then each gets exactly one answer (a 408 where the service waits for the body), no breaker moves, ' +
      'no upstream socket stays held, and ordinary requests of others all succeed meanwhile',
    async () => {
      const clients = SLOW_ROUTES.flatMap(([service, method, path, headers, body]) =>
        (['stall', 'trickle'] as const).map((mode) => ({
          service,
          mode,
          client: slowClient(method, path, headers, body, mode),
        })),
      );
      const answered = Promise.all(clients.map((c) => c.client.answer));
      let done = false;
      void answered.finally(() => (done = true));
      const ordinary: string[] = [];
      while (!done) {
        const round = await Promise.all(
          ORDINARY.map(async ([service, path, headers]) => {
            const res = await fetch(`${gateway.url}${path}`, { headers });
            await res.arrayBuffer();
            return `${service} ${res.status}`;
          }),
        );
        ordinary.push(...round);
      }
      const answers = await answered;

      for (const [i, { service, mode }] of clients.entries()) {
        const raw = answers[i]!;
        if (service === 'audit') {
          expect([service, mode, statusLines(raw)]).toEqual([service, mode, ['HTTP/1.1 200 OK']]);
          continue;
        }
        expect([service, mode, statusLines(raw)]).toEqual([service, mode, [expect.stringMatching(/^HTTP\/1\.1 408/)]]);
        expect([service, mode, problemType(raw), /\r\nconnection: close\r\n/i.test(raw)]).toEqual([
          service,
          mode,
          '/problems/request-timeout',
          true,
        ]);
        // Not before a whole window without the minimum rate (a lower bound only).
        expect(await clients[i]!.client.closedAfter).toBeGreaterThanOrEqual(WINDOW_MS);
      }
      expect(ordinary.length).toBeGreaterThanOrEqual(ORDINARY.length);
      expect(ordinary.filter((o) => !o.endsWith(' 200'))).toEqual([]);
      for (const [service] of SLOW_ROUTES)
        expect([service, gateway.context.upstreams[service].breaker.isOpen()]).toEqual([service, false]);
      await eventually(async () => (SLOW_ROUTES.every(([service]) => busySockets(service) === 0) ? true : undefined));
    },
    60_000,
  );

  it(
    'when a keyed write stalls, then its 408 releases the key: ' + 'the same key with the whole body then runs',
    async () => {
      const key = randomUUID();
      const body = JSON.stringify({ telefoon: '0612345678', pad: 'x'.repeat(4000) });
      const headers = { ...users.drafter, ...json, 'Idempotency-Key': key };
      const stalled = slowClient('POST', '/api/v1/change-requests', headers, body, 'stall');
      expect(statusLines(await stalled.answer)).toEqual([expect.stringMatching(/^HTTP\/1\.1 408/)]);
      const retried = await fetch(`${gateway.url}/api/v1/change-requests`, { method: 'POST', headers, body });
      expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
    },
    30_000,
  );

  it('when a body arrives slowly but above the minimum rate, then it is served as any other', async () => {
    // 2 KiB a second, in 400-byte pieces: above the 1 KiB a second the gateway asks.
    const body = JSON.stringify({ telefoon: '0612345678', pad: 'x'.repeat(7000) });
    const socket = net.connect(new URL(gateway.url).port as unknown as number, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const head =
      `POST /api/v1/change-requests HTTP/1.1\r\nHost: gateway.test\r\nX-Subject: 900000001\r\nContent-Type: ` +
      `application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    socket.write(head);
    let at = 0;
    const feed = setInterval(() => {
      socket.write(body.slice(at, at + 400));
      at += 400;
      if (at >= body.length) clearInterval(feed);
    }, 200);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    clearInterval(feed);
    expect(statusLines(Buffer.concat(chunks).toString('latin1'))).toEqual(['HTTP/1.1 200 OK']);
  }, 30_000);

  it(
    'when many requests with bodies come over one kept-alive connection, ' +
      'then each takes its watch off the socket when done: after twenty more the socket has no more close listeners',
    async () => {
      const port = Number(new URL(gateway.url).port);
      const accepted: net.Socket[] = [];
      // The channel's message is `{ socket }`, the server side of a new connection.
      const onSocket = (message: unknown) => {
        const { socket } = message as { socket: net.Socket };
        if (socket.localPort === port) accepted.push(socket);
      };
      diagnostics.subscribe('net.server.socket', onSocket);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const body = JSON.stringify({ telefoon: '0612345678' });
      const post = () =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            `${gateway.url}/api/v1/change-requests`,
            { method: 'POST', agent, headers: { ...users.drafter, ...json, 'Content-Length': String(body.length) } },
            (res) => {
              res.resume();
              res.once('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.once('error', reject);
          req.end(body);
        });
      try {
        const statuses: number[] = [];
        statuses.push(await post());
        const [socket] = accepted;
        const listenersAfterOne = socket!.listenerCount('close');
        for (let i = 0; i < 20; i++) statuses.push(await post());
        expect(statuses.filter((s) => s !== 200)).toEqual([]);
        // One connection carried them all, and it holds as many close listeners as after the first request.
        expect([accepted.length, socket!.listenerCount('close')]).toEqual([1, listenersAfterOne]);
      } finally {
        diagnostics.unsubscribe('net.server.socket', onSocket);
        agent.destroy();
      }
    },
    30_000,
  );
});
