import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import express from 'express';
import pino from 'pino';
import { eventually, serve } from '@register/testkit';
import { trackIdempotency, type IdempotencyState } from '../src/idempotency/idempotency.middleware';
import { forwardedHeaders } from '../src/proxy/forwarding';
import { SignedIdentities } from '../src/proxy/signed-identities';
import { createUpstreams, type Upstream, type UpstreamName } from '../src/adapters/upstreams';

// The proxy alone, between a client and a stand-in service: bodies, headers, backpressure-free buffering
// only for idempotent writes, and what happens when either side goes away.

type ServiceHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handle: ServiceHandler;
let service: { url: string; close(): Promise<void> };
let downUrl: string;
let gateway: { url: string; close(): Promise<void> };
let upstreams: Record<UpstreamName, Upstream>;
const identityToken = new SignedIdentities('s'.repeat(32));
const states = new Map<string, IdempotencyState>();
const kept: Array<{ status: number; body: Buffer }> = [];
const failures: IdempotencyState[] = [];
/** While set, keeping an answer waits for it, so a test can look at the gateway meanwhile. */
let holdKeep: Promise<void> | undefined;
/** Each keyed request's answer at the gateway, and what happened to it in order: `kept`, `sent`. */
const answers = new Map<IdempotencyState, http.ServerResponse>();
const happened: string[] = [];
/** Called as a request reaches the proxy, before it is sent on. */
let onGatewayRequest: (() => void) | undefined;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const newState = (): IdempotencyState => ({
  key: { caller_hash: 'c', method: 'POST', path: '/p', idempotency_key: 'k' },
  settled: false,
});

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function request(options: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${gateway.url}${options.path ?? '/api/v1/x'}`,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (res) => {
        readAll(res).then((body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }), reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * An upload that sends its first MiB, waits for the answer, and only then sends the rest of what it declared:
 * the service answers before the body is complete, whatever the machine's speed. `sent` settles once the
 * client has written (or could no longer write) the rest.
 */
function partialUpload(options: {
  path: string;
  declared: number;
  agent: http.Agent | false;
  headers?: Record<string, string>;
}): Promise<{ status: number; body: Buffer; sent: Promise<void> }> {
  const first = 1024 * 1024;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${gateway.url}${options.path}`,
      {
        method: 'POST',
        agent: options.agent,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(options.declared),
          ...options.headers,
        },
      },
      (res) => {
        readAll(res).then((body) => {
          const sent = new Promise<void>((done) => {
            req.on('error', () => done());
            req.on('close', () => done());
            req.end(randomBytes(options.declared - first), () => done());
          });
          resolve({ status: res.statusCode ?? 0, body, sent });
        }, reject);
      },
    );
    req.on('error', reject);
    req.write(randomBytes(first));
  });
}

beforeAll(async () => {
  const serviceServer = http.createServer((req, res) => handle(req, res));
  serviceServer.keepAliveTimeout = 65_000; // as the services run (service-kit's serveApp)
  service = await serve(serviceServer);
  const down = await serve(http.createServer());
  downUrl = down.url;
  await down.close();
  const targets = {
    applications: service.url,
    documents: service.url,
    letters: downUrl,
    reference: service.url,
    audit: service.url,
  };
  upstreams = createUpstreams({
    targets,
    logger: pino({ level: 'silent' }),
    maxSocketsPerService: 1,
    proxyTimeoutMs: 30_000,
    onIdempotentResponse: async (state, status, _headers, body) => {
      happened.push('keeping');
      if (holdKeep) await holdKeep;
      state.settled = true;
      kept.push({ status, body });
      happened.push('kept');
    },
    onIdempotentFailure: async (state) => {
      state.settled = true;
      failures.push(state);
    },
  });
  const app = express();
  app.use((req, res, next) => {
    res.locals['correlationId'] = 'corr-proxy';
    const state = states.get(String(req.headers['x-state']));
    if (state) {
      trackIdempotency(req, state);
      answers.set(state, res);
      res.on('finish', () => happened.push('sent'));
    }
    onGatewayRequest?.();
    const upstream = upstreams[(req.headers['x-upstream'] as UpstreamName | undefined) ?? 'documents'];
    // As the API router does: the allow-listed headers plus the gateway's own.
    req.headers = forwardedHeaders(req.headers, {
      identityToken: identityToken.tokenFor(null),
      correlationId: 'corr-proxy',
      passAuthorization: false,
    });
    (state ? upstream.idempotent : upstream.stream)(req, res, next);
  });
  gateway = await serve(http.createServer(app));
});

afterAll(async () => {
  await gateway.close();
  await service.close();
  await Promise.all(Object.values(upstreams).map((u) => u.close()));
});

beforeEach(() => {
  states.clear();
  kept.length = 0;
  failures.length = 0;
  onGatewayRequest = undefined;
  holdKeep = undefined;
  answers.clear();
  happened.length = 0;
});

describe('streaming proxy', () => {
  it(
    'when a large body goes up and a large answer comes back, ' +
      'then both arrive byte for byte with the path and method',
    async () => {
      const up = randomBytes(6 * 1024 * 1024);
      const down = randomBytes(5 * 1024 * 1024);
      let seen: { method?: string; url?: string; host?: string; hash?: string } = {};
      handle = (req, res) => {
        void readAll(req).then((body) => {
          seen = { method: req.method, url: req.url, host: req.headers.host, hash: sha256(body) };
          res.writeHead(201, {
            'content-type': 'application/octet-stream',
            'content-length': down.length,
            'x-service': 'documents',
          });
          res.end(down);
        });
      };
      const res = await request({
        method: 'POST',
        path: '/api/v1/uploads?x=1',
        headers: { 'content-type': 'application/octet-stream' },
        body: up,
      });
      expect(res.status).toBe(201);
      expect(sha256(res.body)).toBe(sha256(down));
      expect(res.headers['x-service']).toBe('documents');
      expect(seen).toEqual({
        method: 'POST',
        url: '/api/v1/uploads?x=1',
        host: new URL(service.url).host,
        hash: sha256(up),
      });
    },
  );

  it('when the service answers with hop-by-hop headers, then they stay behind and the rest passes', async () => {
    handle = (req, res) => {
      req.resume();
      res.writeHead(200, {
        'content-type': 'application/json',
        'proxy-authenticate': 'Basic',
        trailer: 'x-later',
        connection: 'x-private',
        'x-private': 'secret',
        'x-kept': 'yes',
      });
      res.end('{}');
    };
    for (const agent of [new http.Agent({ keepAlive: true }), false as const]) {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${gateway.url}/api/v1/x`, { agent }, resolve).on('error', reject),
      );
      res.resume();
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['x-kept']).toBe('yes');
      expect(res.headers['proxy-authenticate']).toBeUndefined();
      expect(res.headers['trailer']).toBeUndefined();
      expect(res.headers['x-private']).toBeUndefined();
      // The client's own wish about its connection holds, not the service's.
      expect(res.headers['connection']).toBe(agent ? 'keep-alive' : 'close');
      if (agent) agent.destroy();
    }
  });

  it(
    'when the service cannot be reached, then 503 problem with ' +
      'the correlation id, and an idempotent claim is released',
    async () => {
      const res = await request({ headers: { 'x-upstream': 'letters' } });
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(res.body.toString())).toMatchObject({
        type: '/problems/unavailable',
        status: 503,
        correlationId: 'corr-proxy',
      });

      const state = newState();
      states.set('down', state);
      const write = await request({
        method: 'POST',
        headers: { 'x-upstream': 'letters', 'x-state': 'down', 'content-type': 'application/json' },
        body: Buffer.from('{}'),
      });
      expect(write.status).toBe(503);
      expect(failures).toEqual([state]);
    },
  );

  it(
    'when the service cuts its answer short, ' + 'then the client sees a cut connection, not a complete answer',
    async () => {
      handle = (req, res) => {
        req.resume();
        res.writeHead(200, { 'content-length': '100000' });
        res.write(Buffer.alloc(1000));
        setImmediate(() => res.socket?.destroy());
      };
      const outcome = await new Promise<string>((resolve) => {
        const req = http.get(`${gateway.url}/api/v1/x`, { agent: false }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve('complete'));
          res.on('error', () => resolve('cut'));
          res.on('aborted', () => resolve('cut'));
        });
        req.on('error', () => resolve('cut'));
      });
      expect(outcome).toBe('cut');
    },
  );

  it(
    'when the service refuses an upload before reading all of it, ' +
      'then the client gets the refusal and the rest of the request is abandoned',
    async () => {
      const upload = 8 * 1024 * 1024;
      const serviceConnectionClosed = new Promise<number>((resolve) => {
        handle = (req, res) => {
          let received = 0;
          req.on('data', (chunk: Buffer) => (received += chunk.length));
          req.socket.once('close', () => resolve(received));
          req.once('data', () => {
            res.writeHead(413, { 'content-type': 'application/problem+json' });
            res.end('{"status":413}');
          });
        };
      });
      // Connection: close (no agent): once the refusal is out the gateway closes the client's connection; the
      // half-sent request to the service must not wait on its keep-alive connection for a body that never comes.
      const res = await partialUpload({ path: '/api/v1/uploads', declared: upload, agent: false });
      expect(res.status).toBe(413);
      expect(res.body.toString()).toBe('{"status":413}');
      expect(await serviceConnectionClosed).toBeLessThan(upload);
    },
  );

  it(
    'when the service refuses an upload early on a keep-alive connection, ' +
      'then the client may finish sending and use the connection again',
    async () => {
      handle = (req, res) => {
        if (req.url === '/api/v1/after') {
          req.resume();
          res.end('after');
          return;
        }
        req.once('data', () => {
          res.writeHead(413, { 'content-type': 'application/problem+json' });
          res.end('{"status":413}');
        });
        req.resume();
      };
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const sockets = new Set<unknown>();
        agent.on('free', (socket) => sockets.add(socket));
        const refused = await partialUpload({ path: '/api/v1/uploads', declared: 4 * 1024 * 1024, agent });
        expect(refused.status).toBe(413);
        await refused.sent;
        const after = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          http
            .get(`${gateway.url}/api/v1/after`, { agent }, (res) => {
              readAll(res).then((b) => resolve({ status: res.statusCode ?? 0, body: b.toString() }), reject);
            })
            .on('error', reject);
        });
        expect(after).toEqual({ status: 200, body: 'after' });
        // Both requests went over one connection: the gateway read and dropped the rest of the refused body.
        expect(sockets.size).toBe(1);
      } finally {
        agent.destroy();
      }
    },
  );

  it(
    'when a client goes on sending a refused upload without end, ' +
      'then the gateway drops up to 64 MiB and then cuts the connection',
    async () => {
      handle = (req, res) => {
        req.once('data', () => {
          res.writeHead(413, { 'content-type': 'application/problem+json' });
          res.end('{"status":413}');
        });
        req.resume();
      };
      const agent = new http.Agent({ keepAlive: true });
      const MIB = 1024 * 1024;
      let sent = 0;
      let closedAfter = -1;
      const req = http.request(`${gateway.url}/api/v1/uploads`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(1024 * MIB) },
      });
      req.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => req.on('close', () => resolve(void (closedAfter = sent))));
      const send = () =>
        new Promise<void>((resolve) => {
          sent += MIB;
          req.write(Buffer.alloc(MIB), () => resolve());
        });
      await send();
      const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
      expect(res.statusCode).toBe(413);
      res.resume();
      while (sent < 48 * MIB) await send();
      expect(closedAfter).toBe(-1);
      // Written until the gateway cuts the connection: each write, or the close itself, moves the loop on.
      while (closedAfter === -1 && sent < 160 * MIB) await Promise.race([send(), closed]);
      expect(closedAfter).toBeGreaterThan(64 * MIB);
      expect(closedAfter).toBeLessThan(160 * MIB);
      agent.destroy();
    },
  );

  it('when the client goes away mid-upload, then the request to the service is aborted too', async () => {
    let firstData!: () => void;
    const bytesArrived = new Promise<void>((resolve) => (firstData = resolve));
    const aborted = new Promise<boolean>((resolve) => {
      handle = (req) => {
        req.once('data', () => firstData());
        req.on('data', () => undefined);
        req.on('close', () => resolve(!req.complete));
      };
    });
    const client = http.request(`${gateway.url}/api/v1/uploads`, {
      method: 'POST',
      headers: { 'content-length': String(10 * 1024 * 1024) },
      agent: false,
    });
    client.on('error', () => undefined);
    client.write(Buffer.alloc(256 * 1024));
    await bytesArrived;
    client.destroy();
    expect(await aborted).toBe(true);
  });
});

describe('idempotent writes', () => {
  it(
    'when a write carries a key, ' + 'then the answer is kept before it is sent and the body hash covers every byte',
    async () => {
      const body = randomBytes(3 * 1024 * 1024);
      handle = (req, res) => {
        void readAll(req).then((b) => {
          res.writeHead(201, { 'content-type': 'application/json', location: '/api/v1/x/1' });
          res.end(JSON.stringify({ hash: sha256(b) }));
        });
      };
      const state = newState();
      states.set('big', state);
      let release!: () => void;
      holdKeep = new Promise<void>((resolve) => (release = resolve));
      let received = false;
      const answer = request({
        method: 'POST',
        headers: { 'x-state': 'big', 'content-type': 'application/octet-stream' },
        body,
      }).then((r) => ((received = true), r));
      // Keeping is under way and held here: not a byte of the answer has left the gateway.
      await eventually(async () => (happened.includes('keeping') ? true : undefined));
      expect(answers.get(state)?.headersSent).toBe(false);
      expect(received).toBe(false);
      release();
      const res = await answer;
      expect(happened).toEqual(['keeping', 'kept', 'sent']);
      expect(res.status).toBe(201);
      expect(res.headers['location']).toBe('/api/v1/x/1');
      expect(kept).toEqual([{ status: 201, body: res.body }]);
      expect(JSON.parse(res.body.toString())).toEqual({ hash: sha256(body) });
      expect(state.requestHash).toBe(sha256(body));
    },
  );

  it(
    'when the service refuses a keyed upload before reading all of it, ' +
      'then the client gets the refusal and the key is released',
    async () => {
      handle = (req, res) => {
        req.once('data', () => {
          res.writeHead(413, { 'content-type': 'application/problem+json' });
          res.end('{"status":413}');
        });
        req.resume();
      };
      const state = newState();
      states.set('refused', state);
      const res = await partialUpload({
        path: '/api/v1/uploads',
        declared: 8 * 1024 * 1024,
        agent: false,
        headers: { 'x-state': 'refused' },
      });
      expect(res.status).toBe(413);
      expect(res.body.toString()).toBe('{"status":413}');
      await res.sent;
      // Its body cannot be matched to a retry's: not kept for replay; a retry runs again. The bytes that come
      // after the answer touch no finished hash (that used to throw in a 'data' listener and end the process).
      expect(kept).toEqual([]);
      expect(failures).toEqual([state]);
      expect(state.requestHash).toBeUndefined();
    },
  );

  it(
    'when a write waits for a free connection to the service, ' + 'then its body hash still covers every byte',
    async () => {
      // maxSocketsPerService is 1: the first request holds the only connection until the second request reaches
      // the proxy; its answer comes after the second was queued for the connection, so the second's body waits
      // (held at the client, read once the connection is free).
      let releaseFirst!: () => void;
      const firstHeld = new Promise<void>((resolve) => {
        handle = (req, res) => {
          if (req.url === '/api/v1/first') {
            req.resume();
            releaseFirst = () => res.end('first');
            resolve();
            return;
          }
          void readAll(req).then((b) => res.end(sha256(b)));
        };
      });
      const first = request({ path: '/api/v1/first' });
      await firstHeld;
      onGatewayRequest = () => releaseFirst();
      const body = randomBytes(16 * 1024);
      const state = newState();
      states.set('queued', state);
      const second = await request({
        method: 'POST',
        path: '/api/v1/second',
        headers: { 'x-state': 'queued', 'content-type': 'application/octet-stream' },
        body,
      });
      expect((await first).body.toString()).toBe('first');
      expect(second.body.toString()).toBe(sha256(body));
      expect(state.requestHash).toBe(sha256(body));
    },
  );
});
