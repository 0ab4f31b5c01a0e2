import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import fc from 'fast-check';
import type { Service } from '@register/launcher';
import { DESCRIPTION_FILE, startWholeSystem } from '../src';
import { ownInfrastructure } from './support/own-infrastructure';

// ADR 0015: no input, however hostile, gets a 5xx. This walks every operation of the merged description
// with fast-check's generators (strings with NUL, surrogates and bad percent-escapes, 1 MB values, deep
// nesting, wrong types, huge numbers, repeated and array-shaped query parameters, garbage and truncated
// multipart, bad identity and correlation headers) and asserts: no 5xx, every error body a problem document,
// no service process restarted. The seed is printed; FC_SEED=<seed> replays a run.

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: 'json' | 'multipart' | null;
}

const description = JSON.parse(readFileSync(DESCRIPTION_FILE, 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Array<{ name: string; in: string }>; requestBody?: { content: Record<string, unknown> } }
    >
  >;
};
/** The routes the contract keeps outside the description (the letter as HTML and PDF, a sample letter). */
const UNDESCRIBED: Operation[] = [
  { method: 'GET', path: '/api/v1/brief/preview', query: ['referentie'], body: null },
  { method: 'GET', path: '/api/v1/brief/pdf', query: ['referentie'], body: null },
  { method: 'POST', path: '/api/v1/admin/org-template/{subOrgId}/test-letter', query: [], body: null },
];
const OPERATIONS: Operation[] = [
  ...Object.entries(description.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete'].includes(method))
      .map(([method, op]): Operation => ({
        method: method.toUpperCase(),
        path: path.startsWith('/health') ? path : `/api/v1${path}`,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody ? (op.requestBody.content['multipart/form-data'] ? 'multipart' : 'json') : null,
      })),
  ),
  ...UNDESCRIBED,
];
const opName = (op: Operation) => `${op.method} ${op.path}`;

/** Strings a careless or hostile client sends. */
const hostileString = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '%ZZ',
    '%',
    '%00',
    '%E0%A4%A',
    '..%2F..%2F',
    '../../etc/passwd',
    '💥',
    "'; DROP TABLE x; --",
    '<script>alert(1)</script>',
    ' ',
    '',
  ),
  fc.constantFrom('2147483648', '-2147483649', '1e308', 'NaN', '-0', '9'.repeat(400)),
  fc.nat({ max: 3 }).map((n) => 'x'.repeat([1024, 65_536, 300_000, 1_048_576][n]!)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.constantFrom(2_147_483_648, -2_147_483_649, 1e308, 1e30, -1, 0, 1.5, true, false, null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A raw body and its content type. */
const jsonBody = fc.oneof(
  fc
    .record(
      {
        draft: hostileValue,
        stepIndex: hostileValue,
        stepCount: hostileValue,
        type: hostileValue,
        uren: hostileValue,
        besluit: hostileValue,
        enabled: hostileValue,
        sections: hostileValue,
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
  // Built as text: JSON.stringify itself overflows the stack thousands of levels deep.
  fc
    .constantFrom(100, 5000)
    .map(
      (d) =>
        `{"draft":${'['.repeat(d)}1${']'.repeat(d)}` +
        `,"stepIndex":0,"stepCount":1,"sections":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`,
    ),
  fc.constantFrom(
    '{"a":"\\u0000"}',
    '{"\\ud800":1}',
    '{"uren":1e308}',
    '{',
    '[',
    'null',
    '"x"',
    '{"a":1,}',
    '\u0000',
    '{"draft":"\\udfff"}',
  ),
  fc.string(),
);

function multipart(boundary: string, parts: Array<[string, string]>, end: boolean, fileName: string | null): string {
  let body = parts
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  if (fileName !== null)
    body +=
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
      `filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n${'x'.repeat(300)}\r\n`;
  return end ? `${body}--${boundary}--\r\n` : body;
}

/** File names that hide what they are, break out of their header, or carry what PostgreSQL refuses. */
const hostileFileName = fc.oneof(
  fc.constantFrom(
    'inv\u202Efdp.exe',
    '\u200B\u2066',
    'a\u0000b.pdf',
    'x\u0007.pdf',
    '../../etc/passwd',
    'a"b.pdf',
    'x\r\nContent-Type: text/html\r\n\r\n.pdf',
    '💥.pdf',
    'x'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }),
);

const multipartBody = fc
  .record({
    boundary: fc.constantFrom('b0undary', 'x'.repeat(70), ''),
    declared: fc.constantFrom('b0undary', 'other', ''),
    end: fc.boolean(),
    fields: fc.array(
      fc.tuple(fc.constantFrom('wizardId', 'categoryId', 'localId', 'applicationId', 'file', 'x'), hostileString),
      { maxLength: 5 },
    ),
    fileName: fc.option(hostileFileName),
    headerless: fc.boolean(),
  })
  .map((m) => {
    let text = multipart(m.boundary, m.fields, m.end, m.fileName);
    if (m.headerless) text = `--${m.boundary}\r\n\r\nno headers\r\n--${m.boundary}--\r\n`;
    return { text, type: m.declared === '' ? 'multipart/form-data' : `multipart/form-data; boundary=${m.declared}` };
  });

const NOTIFICATIES_AUTH = 'Token hostile-input-webhook';

/** Every kind of caller, a well-formed one of each role and the malformed ones a careless client sends. */
const IDENTITIES = {
  everything: fc.constant({
    'X-Subject': '900000003',
    'X-Role': 'admin',
    'X-Medewerker': 'mw-hostile',
    'X-Rollen': 'beoordelaar',
    'X-Admin': 'true',
  }),
  drafter: fc.constant({ 'X-Subject': '900000001' }),
  approver: fc.constant({ 'X-Subject': '900000002', 'X-Role': 'approver' }),
  admin: fc.constant({ 'X-Subject': '900000003', 'X-Role': 'admin' }),
  beoordelaar: fc.constant({ 'X-Medewerker': 'mw-hostile', 'X-Rollen': 'beoordelaar' }),
  webhookSecret: fc.constant({ Authorization: NOTIFICATIES_AUTH }),
  malformedSubject: fc.record({
    'X-Subject': fc.constantFrom(
      'x'.repeat(65),
      '',
      ' ',
      '9 0',
      '%00',
      'ä'.normalize('NFD').replace(/[^\x20-\x7e]/g, '?'),
    ),
    'X-Role': fc.constantFrom('root', '', 'admin,admin'),
  }),
  malformedEmployee: fc.record({
    'X-Medewerker': fc.constantFrom('mw', 'x'.repeat(200)),
    'X-Rollen': fc.constantFrom(',,,', 'BEOORDELAAR', 'x'.repeat(5000)),
  }),
  none: fc.constant({}),
} satisfies Record<string, fc.Arbitrary<Record<string, string>>>;
type CallerKind = keyof typeof IDENTITIES;
const KINDS = Object.keys(IDENTITIES) as CallerKind[];

const correlation = fc.oneof(fc.constant(undefined), fc.constantFrom('ok-1', 'x'.repeat(129), 'bad id!', '../x', ''));

/** What a request carries besides its operation and its caller. */
const content = {
  params: fc.array(hostileString, { minLength: 3, maxLength: 3 }),
  query: fc.array(fc.tuple(fc.string({ maxLength: 12 }), hostileString), { maxLength: 4 }),
  repeatQuery: fc.boolean(),
  /** ADR 0015: a path in another letter case is an unknown resource. */
  pathCase: fc.constantFrom('as-is', 'as-is', 'as-is', 'upper-prefix', 'upper-segment'),
  correlation,
  idempotencyKey: fc.oneof(fc.constant(undefined), fc.constantFrom('k', 'x'.repeat(256), '')),
  json: jsonBody,
  multipart: multipartBody,
};
const kindAndIdentity = fc
  .constantFrom(...KINDS)
  .chain((kind) => IDENTITIES[kind].map((headers) => ({ kind, headers })));
const request = fc.record({ op: fc.constantFrom(...OPERATIONS), caller: kindAndIdentity, ...content });
type HostileRequest = typeof request extends fc.Arbitrary<infer R> ? R : never;

/** One request of every operation for every kind of caller, each with hostile content of its own. */
function everyOperationByEveryCaller(seed: number): HostileRequest[] {
  const rest = fc.sample(fc.record(content), { seed, numRuns: OPERATIONS.length * KINDS.length });
  return OPERATIONS.flatMap((op, i) =>
    KINDS.map((kind, j) => ({
      op,
      caller: { kind, headers: fc.sample(IDENTITIES[kind], { seed: seed + j, numRuns: 1 })[0]! },
      ...rest[i * KINDS.length + j]!,
    })),
  );
}

function casedPath(path: string, pathCase: HostileRequest['pathCase']): string {
  if (!path.startsWith('/api/v1/') || pathCase === 'as-is') return path;
  if (pathCase === 'upper-prefix') return `/API/V1/${path.slice('/api/v1/'.length)}`;
  return path.replace(/^\/api\/v1\/([a-z])/, (_m, c: string) => `/api/v1/${c.toUpperCase()}`);
}

/** Percent-encodes what fetch would refuse, but lets the hostile escapes through as they are. */
function segment(value: string): string {
  const v = value.slice(0, 2000);
  // The hostile escapes go as they are; a space or a control character would break the request line itself
  // (Node's parser answers 400 and resets the connection under a large body), so those are escaped.
  if (/^%|%[0-9A-Za-z]{0,2}$/.test(v) || v.includes('%2F'))
    return [...v]
      .map((c) => (c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f ? encodeURIComponent(c) : c))
      .join('');
  // A lone surrogate has no UTF-8: send the bytes a careless client would (CESU-style), which no decoder accepts.
  const safe = v.replace(
    /[\ud800-\udfff]/g,
    (c) => `%ED%${(0xa0 + ((c.charCodeAt(0) >> 6) & 0x1f)).toString(16).toUpperCase()}%80`,
  );
  return safe
    .split(/(%E[D]%[0-9A-F]{2}%80)/)
    .map((part, i) => (i % 2 ? part : encodeURIComponent(part)))
    .join('');
}

/** The answer once it is complete by its own framing (Content-Length or chunked), or null while it is not. */
function completeAnswer(
  data: Buffer,
  method: string,
  closed = false,
): { status: number; type: string; body: string } | null {
  const text = data.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return null;
  const headers = text.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
  const type = /\r\ncontent-type: ([^\r\n]*)/i.exec(headers)?.[1] ?? '';
  const rest = data.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1'));
  const length = /\r\ncontent-length: (\d+)/i.exec(headers)?.[1];
  if (method === 'HEAD' || status === 204 || status === 304) return { status, type, body: '' };
  if (length !== undefined)
    return rest.length >= Number(length)
      ? { status, type, body: rest.subarray(0, Number(length)).toString('utf8') }
      : null;
  if (/\r\ntransfer-encoding: chunked/i.test(headers)) {
    const chunked = rest.toString('latin1');
    if (!chunked.endsWith('0\r\n\r\n')) return null;
    return { status, type, body: chunked.replace(/(^|\r\n)[0-9a-fA-F]+\r\n/g, '') };
  }
  // Neither: the body runs until the connection closes (Node's own 400 for a malformed request line).
  return closed ? { status, type, body: rest.toString('utf8') } : null;
}

/**
 * Sends raw bytes over a socket (fetch refuses malformed URLs and header values) on a keep-alive connection,
 * as real clients do, and takes the answer by its framing; resolves with the status, type and body.
 */
function rawRequest(
  port: number,
  method: string,
  head: string,
  body: string,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (answer: { status: number; type: string; body: string } | null, err?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (answer) resolve(answer);
      else reject(err ?? new Error(`no HTTP answer: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`));
    };
    socket.setTimeout(30_000, () => finish(null, new Error('no answer within 30 s')));
    socket.on('data', (c: Buffer) => {
      data = Buffer.concat([data, c]);
      const answer = completeAnswer(data, method);
      if (answer) finish(answer);
    });
    // A server may answer early (413, 400) and close while the body is still being written.
    socket.on('error', (err) => finish(completeAnswer(data, method, true), err));
    socket.on('close', () => finish(completeAnswer(data, method, true)));
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body, 'utf8')]));
  });
}

/** The raw request a careless or hostile client would send for `r`: its head and body. */
function rawOf(r: HostileRequest, port: number): { head: string; body: string; path: string } {
  let params = 0;
  let path = r.op.path.replace(/\{[^}]+\}/g, () => segment(r.params[params++] ?? 'x'));
  const query = [...r.query, ...r.op.query.map((name) => [name, r.params[0] ?? ''] as [string, string])];
  if (r.repeatQuery && query[0]) query.push(query[0]);
  if (query.length > 0) path += `?${query.map(([k, v]) => `${segment(k)}=${segment(v)}`).join('&')}`;
  path = casedPath(path, r.pathCase);
  const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, ...r.caller.headers };
  if (r.correlation !== undefined) headers['X-Correlation-Id'] = r.correlation;
  if (r.idempotencyKey !== undefined && r.op.method !== 'GET') headers['Idempotency-Key'] = r.idempotencyKey;
  let body = '';
  if (r.op.body === 'json') {
    body = r.json;
    headers['Content-Type'] = 'application/json';
  } else if (r.op.body === 'multipart') {
    body = r.multipart.text;
    headers['Content-Type'] = r.multipart.type;
  }
  if (r.op.method !== 'GET') headers['Content-Length'] = String(Buffer.byteLength(body));
  const head = `${r.op.method} ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  return { head, body: r.op.method === 'GET' ? '' : body, path };
}

describe('hostile input against every operation (ADR 0015)', () => {
  let system: Awaited<ReturnType<typeof startWholeSystem>>;
  let port: number;
  let pids: Partial<Record<Service, number | undefined>>;
  const prefix = `hostile_${randomBytes(4).toString('hex')}`;
  const own = ownInfrastructure(prefix);
  beforeAll(async () => {
    system = await startWholeSystem(own.infra, prefix, own.settings({ applications: { NOTIFICATIES_AUTH } }));
    port = Number(new URL(system.gateway).port);
    pids = Object.fromEntries(
      (['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'] as const).map((s) => [
        s,
        system.system.pid(s),
      ]),
    );
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
    await own.remove();
  });

  /** Sends one request and asserts what every answer must be: below 500, a problem document for an error. */
  async function expectNoServerError(r: HostileRequest): Promise<void> {
    const { head, body, path } = rawOf(r, port);
    const res = await rawRequest(port, r.op.method, head, body).catch((err: Error) => {
      process.stdout.write(
        `no answer (${err.message}) for:\n${head
          .split('\r\n')
          .map((l) => l.slice(0, 160))
          .join('\n')}[${body.length} bytes of body]\n`,
      );
      throw err;
    });
    const where = `${r.op.method} ${path.slice(0, 200)} as ${r.caller.kind} → ${res.status}`;
    if (res.status >= 500)
      process.stdout.write(`5xx for:\n${head.slice(0, 2000)}${body.slice(0, 1500)}\n→ ${res.body.slice(0, 500)}\n`);
    expect([where, res.status < 500]).toEqual([where, true]);
    // A path in another letter case is never a route's twin: a bare 404, after the 401 every /api/v1 path gives
    // a caller without identity (or Node's 400 for a request line it cannot read, its 431 for one over its size).
    if (r.pathCase !== 'as-is' && r.op.path.startsWith('/api/v1/')) {
      const refused =
        res.status === 400 || res.status === 431 || (res.status === 401 && r.pathCase === 'upper-segment');
      expect([where, refused ? 'refused' : [res.status, res.body]]).toEqual([where, refused ? 'refused' : [404, '']]);
    }
    if (res.status >= 400 && res.body !== '') {
      expect([where, res.type]).toEqual([where, expect.stringMatching(/^application\/problem\+json/)]);
      const problem = JSON.parse(res.body) as { type?: string; status?: number };
      expect([where, problem.status, typeof problem.type]).toEqual([where, res.status, 'string']);
    }
  }

  it(
    'when every operation is called by every kind of caller and then 5,000 hostile ' +
      'requests follow, then none answers 5xx, every error body is a problem document, ' +
      'every operation was hit at least 20 times, and no service restarted',
    async () => {
      const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2_147_483_647);
      process.stdout.write(`hostile-input seed: ${seed} (replay with FC_SEED=${seed})\n`);
      const hits = new Map<string, number>();
      const pairs = new Set<string>();
      const count = (r: HostileRequest) => {
        hits.set(opName(r.op), (hits.get(opName(r.op)) ?? 0) + 1);
        pairs.add(`${opName(r.op)} ${r.caller.kind}`);
      };
      for (const r of everyOperationByEveryCaller(seed)) {
        await expectNoServerError(r);
        count(r);
      }
      const runs = Number(process.env['HOSTILE_RUNS'] ?? 5000);
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          await expectNoServerError(r);
          count(r);
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
      process.stdout.write(
        `hostile-input coverage: ${OPERATIONS.length} operations ` +
          `× ${KINDS.length} caller kinds, ${pairs.size} pairs; ` +
          `fewest hits of an operation: ${Math.min(...hits.values())}\n`,
      );
      expect(pairs.size).toBe(OPERATIONS.length * KINDS.length);
      const scarce = OPERATIONS.map(opName).filter((name) => (hits.get(name) ?? 0) < 20);
      expect(scarce).toEqual([]);
      for (const [service, pid] of Object.entries(pids))
        expect([service, system.system.pid(service as Service)]).toEqual([service, pid]);
    },
    900_000,
  );
});
