// npm run bench (services/reference): direct throughput of GET /api/v1/stamdata/opleidingen?peildatum=… on the
// reference service (its built main, its own process, signed identity) against the node:http ceiling: a bare
// server answering the same bytes, also in its own process, measured in the same run with the same load.
// Infrastructure: DATABASE_URL / NATS_URL (default: the machine's 127.0.0.1 services).
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { freePort } from '@register/embedded';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const SECRET = 'bench-internal-identity-secret-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DB = 'bench_reference';
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function child(args, env) {
  const p = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return p;
}

async function ready(url) {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready`);
}

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.end();
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${DB}`;

const port = await freePort();
const service = child([path.join(root, 'services/reference/dist/src/main.js')], {
  PORT: String(port),
  DATABASE_URL: dbUrl.toString(),
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  INTERNAL_IDENTITY_SECRET: SECRET,
  LOG_LEVEL: 'warn',
});
const base = `http://127.0.0.1:${port}`;
await ready(`${base}/health/ready`);
const path_ = '/api/v1/stamdata/opleidingen?peildatum=2024-01-01';
// A signed identity lives 60 s; one per run is enough for the load below.
const headers = {
  [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(
    SECRET,
    {
      identity: { practitioner: { subject: '900000003', role: 'admin' }, caseHandler: null, adminSeam: false },
      service: null,
      correlationId: null,
    },
    Date.now(),
    600,
  ),
};
const body = await (await fetch(`${base}${path_}`, { headers })).text();

const ceilingPort = await freePort();
const ceiling = child(
  [
    '-e',
    `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': ` +
      `'application/json' }); s.end(${JSON.stringify(body)}); }).listen(${ceilingPort}, '127.0.0.1')`,
  ],
  {},
);
await ready(`http://127.0.0.1:${ceilingPort}/`);

await load(`${base}${path_}`, headers); // warm-up, not counted
const measured = await load(`${base}${path_}`, headers);
const top = await load(`http://127.0.0.1:${ceilingPort}${path_}`, {});
service.kill('SIGTERM');
ceiling.kill('SIGTERM');

const row = (name, r) =>
  `${name.padEnd(24)} ${String(Math.round(r.requests.average)).padStart(8)}` +
  ` req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   errors ${r.errors + r.non2xx}`;
console.log(`stamdata direct, ${CONNECTIONS} connections, ${SECONDS} s each, body ${body.length} bytes`);
console.log(row('reference service', measured));
console.log(row('node:http ceiling', top));
console.log(
  `service / ceiling: ${(measured.requests.average / top.requests.average).toFixed(2)}; ` +
    `service / 1,356 req/s (before, same machine): ${(measured.requests.average / 1356).toFixed(1)}x`,
);
