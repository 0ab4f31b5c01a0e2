import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express from 'express';
import { eventually, serve } from '@register/testkit';
import { requestScope } from '../src/http';
import { createLogger } from '../src/logger';

type Line = Record<string, unknown>;

/** A logger like every service's (redaction, correlation mixin) whose lines the test reads. */
function capturingLogger(level: string) {
  const raw: string[] = [];
  const logger = createLogger('test', level, { write: (s: string) => void raw.push(s) });
  return { logger, raw, lines: () => raw.map((s) => JSON.parse(s) as Line) };
}

/** The gateway's order: the request scope (correlation id, hygiene, trace, log line) first, then routes. */
async function startApp(level: string) {
  const captured = capturingLogger(level);
  const app = express();
  app.use(requestScope(captured.logger));
  app.get('/health', (_req, res) => res.json({ status: 'ok' }));
  app.get('/health/ready', (_req, res) => res.json({ status: 'ready' }));
  app.get('/api/v1/things', (_req, res) => {
    captured.logger.info('inside the route');
    res.json({ ok: true });
  });
  app.get('/api/v1/slow', (_req, res) => void setTimeout(() => res.json({ ok: true }), 30));
  app.get('/api/v1/status/:code', (req, res) =>
    res.status(Number(req.params.code)).json({ status: Number(req.params.code) }),
  );
  // Headers and a first chunk, then nothing: the client gives up mid-response.
  const streamsClosed = new Map<string, Promise<void>>();
  app.get('/api/v1/stream', (req, res) => {
    // 'close' is the response's last event (the logger listens to it and to 'finish', which never comes now).
    streamsClosed.set(
      String(req.headers['x-correlation-id']),
      new Promise((resolve) => res.once('close', () => resolve())),
    );
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
  });
  const server = await serve(http.createServer(app));
  return { ...captured, server, streamClosed: (id: string) => streamsClosed.get(id) };
}

type App = Awaited<ReturnType<typeof startApp>>;

const requestLines = (app: App) =>
  app.lines().filter((l) => typeof l['msg'] === 'string' && (l['msg'] as string).startsWith('request '));

async function get(app: App, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(app.server.url + path, { headers });
  await res.arrayBuffer();
  return res;
}

/** Waits for the request line of `correlationId`. */
const lineOf = (app: App, correlationId: string) =>
  eventually(async () => requestLines(app).find((l) => l['reqId'] === correlationId));

describe('requestScope: the log line', () => {
  let info: App;
  let warn: App;

  beforeAll(async () => {
    info = await startApp('info');
    warn = await startApp('warn');
  });
  afterAll(async () => {
    await info?.server.close();
    await warn?.server.close();
  });

  it(
    'when a request completes, then one info line carries method, ' +
      'url with query, status, time and the correlation id as reqId',
    async () => {
      const id = `corr-${randomUUID()}`;

      await get(info, '/api/v1/things?peildatum=2025-01-01', { 'X-Correlation-Id': id });

      const line = await lineOf(info, id);
      expect(line).toMatchObject({
        level: 30,
        msg: 'request completed',
        reqId: id,
        correlationId: id,
        method: 'GET',
        url: '/api/v1/things?peildatum=2025-01-01',
        statusCode: 200,
      });
      expect(line['responseTime']).toEqual(expect.any(Number));
      expect(requestLines(info).filter((l) => l['reqId'] === id)).toHaveLength(1);
      // The mixin still stamps lines written inside the request.
      expect(info.lines().find((l) => l['msg'] === 'inside the route' && l['correlationId'] === id)).toBeDefined();
    },
  );

  it('when no correlation id is sent, then reqId is the one the response echoes', async () => {
    const res = await get(info, '/api/v1/things');

    const echoed = res.headers.get('x-correlation-id') ?? '';
    expect(echoed).not.toBe('');
    expect(await lineOf(info, echoed)).toMatchObject({ reqId: echoed, correlationId: echoed });
  });

  it('when the response takes a while, then responseTime is its duration in ms', async () => {
    const id = `slow-${randomUUID()}`;

    await get(info, '/api/v1/slow', { 'X-Correlation-Id': id });

    expect((await lineOf(info, id))['responseTime']).toBeGreaterThanOrEqual(25);
  });

  it.each([
    [200, 30],
    [404, 30],
    [499, 30],
    [500, 50],
    [503, 50],
  ])('when the status is %i, then the line is at level %i', async (status, level) => {
    const id = `status-${status}-${randomUUID()}`;

    await get(info, `/api/v1/status/${status}`, { 'X-Correlation-Id': id });

    expect(await lineOf(info, id)).toMatchObject({ level, statusCode: status, msg: 'request completed' });
  });

  it(
    'when identity, authorization and cookie headers are sent, ' +
      'then no header value and no header field is in the line',
    async () => {
      const id = `headers-${randomUUID()}`;
      const secrets = {
        'X-Subject': '900000001',
        'X-Medewerker': 'mw-secret-42',
        'X-Rollen': 'beoordelaar-secret',
        Authorization: 'Bearer token-secret',
        Cookie: 'session=cookie-secret',
        'User-Agent': 'agent-secret',
      };

      await get(info, '/api/v1/things', { ...secrets, 'X-Correlation-Id': id });

      await lineOf(info, id);
      const raw = info.raw.find((s) => s.includes(id) && s.includes('request completed')) ?? '';
      for (const value of Object.values(secrets)) expect(raw).not.toContain(value);
      expect(Object.keys(JSON.parse(raw) as Line).sort()).toEqual([
        'correlationId',
        'hostname',
        'level',
        'method',
        'msg',
        'name',
        'pid',
        'reqId',
        'responseTime',
        'statusCode',
        'time',
        'traceId',
        'url',
      ]);
    },
  );

  it('when the query is 8 KB long, then the line keeps the path and at most 1 KiB of it', async () => {
    const id = `long-${randomUUID()}`;
    const long = 'x'.repeat(8000);

    await get(info, `/api/v1/things?filter=${long}`, { 'X-Correlation-Id': id });

    const line = await lineOf(info, id);
    expect(String(line['url']).startsWith('/api/v1/things?filter=xxx')).toBe(true);
    expect(String(line['url']).length).toBeLessThanOrEqual('/api/v1/things?'.length + 1024 + 1);
  });

  it('when probes under /health are called, then they are not logged', async () => {
    const sentinel = `after-probes-${randomUUID()}`;

    await get(info, '/health', { 'X-Correlation-Id': `probe-${sentinel}` });
    await get(info, '/health/ready', { 'X-Correlation-Id': `probe-${sentinel}` });
    await get(info, '/api/v1/things', { 'X-Correlation-Id': sentinel });

    await lineOf(info, sentinel);
    expect(info.raw.filter((s) => s.includes(`probe-${sentinel}`))).toEqual([]);
  });

  it('when the level is warn, then a 200 writes nothing and a 5xx still writes its error line', async () => {
    const ok = `warn-ok-${randomUUID()}`;
    const failed = `warn-500-${randomUUID()}`;

    await get(warn, '/api/v1/things', { 'X-Correlation-Id': ok });
    await get(warn, '/api/v1/status/500', { 'X-Correlation-Id': failed });

    expect(await lineOf(warn, failed)).toMatchObject({ level: 50, statusCode: 500, msg: 'request completed' });
    expect(warn.raw.filter((s) => s.includes(ok))).toEqual([]);
  });

  it(
    'when the client goes away mid-response, then the request is ' +
      'logged once at warn as aborted, with the status already sent',
    async () => {
      const id = `abort-${randomUUID()}`;

      await new Promise<void>((resolve, reject) => {
        const url = new URL('/api/v1/stream', info.server.url);
        const req = http.get(url, { headers: { 'X-Correlation-Id': id } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      });

      expect(await lineOf(info, id)).toMatchObject({
        level: 40,
        msg: 'request aborted',
        reqId: id,
        correlationId: id,
        method: 'GET',
        url: '/api/v1/stream',
        statusCode: 200,
      });
      // Once the response has closed, no event of it is left that could log it again.
      await info.streamClosed(id);
      expect(requestLines(info).filter((l) => l['reqId'] === id)).toHaveLength(1);
    },
  );
});
