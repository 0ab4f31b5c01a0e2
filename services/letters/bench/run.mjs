// npm run bench (services/letters): every service as its own process (tools/launcher), the load through the
// gateway with identity headers, as the portals send it.
//   1. GET and PUT /api/v1/brief at a steady 200 req/s for 20 s each, each after 10 s at that rate
//      (target p99 ≤ 15 ms);
//   2. GET /api/v1/brief/pdf of a two-page letter, one at a time, 60 times (target p50 ≤ 150 ms);
//   3. 20 PDF requests in flight all the time (autocannon) while GET /api/v1/brief runs at 100 req/s
//      (target: its p99 stays ≤ 50 ms).
// Infrastructure: DATABASE_URL / NATS_URL / S3_ENDPOINT, else the embedded defaults. BENCH_RATE, BENCH_SECONDS,
// BENCH_WARM_SECONDS; BENCH_DIRECT=1: the letters service itself with signed identities; BENCH_ROUTES=put,pdf: only
// those parts. Diagnosis: BENCH_LETTERS_NODE_OPTIONS / BENCH_GATEWAY_NODE_OPTIONS become that service's NODE_OPTIONS
// (--cpu-prof,
// --trace-gc, a --require'd probe); with BENCH_MARK=1 each of them that has some gets SIGUSR2 right before and after
// each measured steady run.
import path from 'node:path';
import autocannon from 'autocannon';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure } from '@register/launcher';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';
import { steadyLoad, summary } from '@register/steady-load';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const PREFIX = 'lettersbench';
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 10);
const ROUTES = (process.env.BENCH_ROUTES ?? '')
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);
const selected = (name) => ROUTES.length === 0 || ROUTES.some((w) => name.toLowerCase().includes(w));
const DIRECT = process.env.BENCH_DIRECT === '1';
const nodeOptions = (name) => (process.env[name] ? { NODE_OPTIONS: process.env[name] } : {});
let drafter = { 'x-subject': '900000001', 'x-role': 'drafter' };

async function call(base, method, url, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...drafter, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** The shared brief with enough own text in `kern` that its PDF runs over two pages. */
async function twoPageLetter(base) {
  const { brief } = await (await call(base, 'GET', '/api/v1/brief')).json();
  const filler =
    'Wij hebben bij de beoordeling alle stukken betrokken die u ' +
    'heeft meegestuurd, en de regels die voor uw beroep gelden. ';
  const paragraphs = Array.from({ length: 12 }, () => ({
    nodes: [{ type: 'text', text: filler.repeat(3) }],
    list: null,
  }));
  brief.sections[2].blocks.push({ type: 'tekst', content: { paragraphs } });
  const saved = await (await call(base, 'PUT', '/api/v1/brief', { sections: brief.sections })).json();
  return saved.brief.sections;
}

const row = (name, r) =>
  console.log(`| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.requests} | ${r.errors} |`);

async function main() {
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  await dropSystemDatabases(infra.postgresUrl, PREFIX);
  // The audit service's logbook consumers are named after its audit consumer (`<name>_processing`, and
  // `<name>_processing_batches` for batches of records).
  const events = benchEvents(PREFIX, [
    ...['audit', 'documents', 'letters'].map((s) => `${s}_${PREFIX}`),
    `audit_${PREFIX}_processing`,
    `audit_${PREFIX}_processing_batches`,
  ]);
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()])));
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: PREFIX,
    logDir: path.join(root, '.data', 'bench', 'logs'),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
    extraEnv: {
      audit: { AUDIT_CONSUMER: `audit_${PREFIX}` },
      documents: { APPLICATION_EVENTS_CONSUMER: `documents_${PREFIX}` },
      letters: { APPLICATION_EVENTS_CONSUMER: `letters_${PREFIX}`, ...nodeOptions('BENCH_LETTERS_NODE_OPTIONS') },
      gateway: nodeOptions('BENCH_GATEWAY_NODE_OPTIONS'),
    },
  });
  const mark = () => {
    if (process.env.BENCH_MARK !== '1') return;
    for (const s of ['letters', 'gateway'])
      if (process.env[`BENCH_${s.toUpperCase()}_NODE_OPTIONS`]) process.kill(system.pid(s), 'SIGUSR2');
  };
  try {
    await system.startAll();
    if (DIRECT)
      drafter = {
        [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(
          system.secret,
          {
            identity: { practitioner: { subject: '900000001', role: 'drafter' }, caseHandler: null, adminSeam: false },
            service: null,
            correlationId: null,
          },
          Date.now(),
          3600,
        ),
      };
    const base = system.url(DIRECT ? 'letters' : 'gateway');
    const sections = await twoPageLetter(base);
    const { PDFParse } = await import('pdf-parse');
    const pdf = Buffer.from(await (await call(base, 'GET', '/api/v1/brief/pdf')).arrayBuffer());
    const pages = (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).pages.length;
    // Warm-up: connections, both PDF workers.
    await Promise.all(
      Array.from({ length: 6 }, () => call(base, 'GET', '/api/v1/brief/pdf').then((r) => r.arrayBuffer())),
    );
    const get = { headers: drafter };
    const put = {
      method: 'PUT',
      headers: { ...drafter, 'content-type': 'application/json' },
      body: JSON.stringify({ sections }),
    };
    // Each route's load runs WARM_SECONDS unmeasured first, then SECONDS measured, without a pause (as the gateway
    // bench warms right before it measures): V8 keeps optimising a request path for 10–20 s of load, and a PUT
    // warmed 3 s at half the rate still had its slowest requests (16–28 ms) in the first 2.5 s of the measured run.
    const measure = async (name, request) => {
      setTimeout(mark, WARM_SECONDS * 1000);
      row(
        name,
        await steadyLoad({
          url: `${base}/api/v1/brief`,
          rate: RATE,
          warmSeconds: WARM_SECONDS,
          seconds: SECONDS,
          requests: [request],
        }),
      );
      mark();
    };

    console.log(
      `\ntarget ${base} (${DIRECT ? 'the letters service directly' : 'through the gateway'}), ` +
        `${RATE} req/s for ${SECONDS} s per route after ` +
        `${WARM_SECONDS} s of warm-up, evenly spaced (open loop)\n`,
    );
    console.log('| route | p50 ms | p99 ms | requests | errors |\n|---|---|---|---|---|');
    if (selected('get')) await measure('GET /api/v1/brief', get);
    if (selected('put')) await measure('PUT /api/v1/brief', put);

    if (!selected('pdf')) return;
    const one = [];
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      await (await call(base, 'GET', '/api/v1/brief/pdf')).arrayBuffer();
      one.push(performance.now() - t);
    }
    row(`GET /api/v1/brief/pdf (${pages} pages, ${pdf.length} bytes, one at a time)`, summary(one));

    const flood = autocannon({ url: `${base}/api/v1/brief/pdf`, connections: 20, duration: 12, headers: drafter });
    await new Promise((r) => setTimeout(r, 1000));
    const during = await steadyLoad({
      url: `${base}/api/v1/brief`,
      rate: 100,
      seconds: 10,
      requests: [{ headers: drafter }],
    });
    const pdfs = await flood;
    row('GET /api/v1/brief at 100 req/s while 20 PDFs are always in flight', during);
    console.log(
      `| (the PDFs meanwhile: ${pdfs.requests.total} in 12 s, p50 ${pdfs.latency.p50} ms, ` +
        `p99 ${pdfs.latency.p99} ms, non-2xx ${pdfs.non2xx}) | | | | |`,
    );
  } finally {
    await system.stopAll();
    await dropSystemDatabases(infra.postgresUrl, PREFIX);
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    await infra.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
