// npm run bench:routes -w @register/launcher (also part of npm run bench): what each route costs. The whole system
// as processes (one copy of each service), each route driven alone through the gateway at a fixed, evenly spaced
// rate; per route the p50/p99 and the CPU per request of the gateway and of every service (from /proc), and at the
// end each process's resident and peak memory. docs/capacity.md and the pods' requests and limits take these.
// BENCH_RATE (50), BENCH_PDF_RATE (5, the letter's PDF), BENCH_SECONDS (10).
// Infrastructure: DATABASE_URL / NATS_URL, else embedded.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { processCpuMicros, steadyLoad } from '@register/steady-load';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure } from '../dist/index.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const PREFIX = 'routebench';
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PDF_RATE = Number(process.env.BENCH_PDF_RATE ?? 5);
const WARM_SECONDS = 3;

const memoryMiB = (pid, field) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line.split(/\s+/)[1]) / 1024;
};

const practitioner = { 'x-subject': '900000001', 'x-role': 'drafter' };
const admin = { 'x-subject': '900000003', 'x-role': 'admin' };
const handler = { 'x-medewerker': 'mw-001', 'x-rollen': 'beoordelaar' };
const json = (headers, method, body) => ({
  method,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

let uploads = 0;

/** One upload as the portal sends it: a small PDF in a multipart form, each by a practitioner of its own. */
function uploadRequest() {
  const i = uploads++;
  const b = `routebench${randomUUID().replaceAll('-', '')}`;
  const field = (name, value) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file =
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="diploma.pdf"\r\n` +
    `Content-Type: application/pdf\r\n\r\n%PDF-1.4\n${'x'.repeat(2000)}\n%%EOF\n\r\n`;
  return {
    method: 'POST',
    path: '/api/v1/uploads',
    headers: {
      'x-subject': String(960_000_000 + i),
      'x-role': 'drafter',
      'content-type': `multipart/form-data; boundary=${b}`,
    },
    body:
      field('wizardId', 'intake') +
      field('categoryId', 'diploma') +
      field('localId', randomUUID()) +
      file +
      `--${b}--\r\n`,
  };
}

/** The routes, each with the requests it is driven with (set up against the running system first). */
async function routes(gateway) {
  const brief = await fetch(`${gateway}/api/v1/brief`, { headers: practitioner });
  if (!brief.ok) throw new Error(`GET /api/v1/brief answered ${brief.status}`);
  const { brief: current } = await brief.json();
  const get = (headers) => () => ({ headers });
  return [
    { name: 'GET /api/v1/me', path: '/api/v1/me', request: get(practitioner) },
    { name: 'GET /api/v1/dashboard-view', path: '/api/v1/dashboard-view', request: get(practitioner) },
    { name: 'GET /api/v1/applications', path: '/api/v1/applications', request: get(practitioner) },
    { name: 'GET /api/v1/stamdata/opleidingen', path: '/api/v1/stamdata/opleidingen', request: get(handler) },
    { name: 'GET /api/v1/flags', path: '/api/v1/flags', request: get(practitioner) },
    { name: 'GET /api/v1/werkvoorraad', path: '/api/v1/werkvoorraad', request: get(handler) },
    { name: 'GET /api/v1/brief', path: '/api/v1/brief', request: get(practitioner) },
    {
      name: 'PUT /api/v1/brief',
      path: '/api/v1/brief',
      request: () => json(practitioner, 'PUT', { sections: current.sections }),
    },
    { name: 'POST /api/v1/uploads', path: '/api/v1/uploads', request: uploadRequest },
    // A PDF costs tens of milliseconds of CPU (in the letters service's render workers): at the routes' rate it
    // would take more cores than the machine has, and measure the queue.
    { name: 'GET /api/v1/brief/pdf', path: '/api/v1/brief/pdf', request: get(practitioner), rate: PDF_RATE },
    { name: 'GET /api/v1/admin/audit', path: '/api/v1/admin/audit', request: get(admin) },
  ];
}

async function main() {
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const events = benchEvents('routecosts');
  await dropSystemDatabases(infra.postgresUrl, PREFIX);
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()])));
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: PREFIX,
    logDir: path.join(root, '.data', 'bench', 'logs'),
    logLevel: 'warn',
  });
  try {
    for (const s of ['reference', 'documents', 'audit', 'letters', 'applications', 'gateway']) await system.start(s);
    const gateway = system.url('gateway');
    const list = await routes(gateway);
    const processes = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];
    console.log(`\n${RATE} req/s for ${SECONDS} s per route through the gateway, evenly spaced\n`);
    console.log(
      `| route | p50 ms | p99 ms | errors | ${processes.map((p) => `${p} µs/req`).join(' | ')} | all µs/req |\n` +
        `|---|---|---|---|${processes.map(() => '---|').join('')}---|`,
    );
    for (const route of list) {
      const request = (i) => ({ path: route.path, ...route.request(i) });
      const rate = route.rate ?? RATE;
      await steadyLoad({ url: gateway, rate, seconds: WARM_SECONDS, request });
      const pids = Object.fromEntries(processes.map((p) => [p, system.pid(p)]));
      const before = Object.fromEntries(processes.map((p) => [p, processCpuMicros(pids[p])]));
      const r = await steadyLoad({ url: gateway, rate, seconds: SECONDS, request });
      const cpu = processes.map((p) => (processCpuMicros(pids[p]) - before[p]) / r.requests);
      const all = cpu.reduce((a, x) => a + x, 0);
      console.log(
        `| ${route.name}${rate === RATE ? '' : ` (${rate} req/s)`} | ` +
          `${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ` +
          `${cpu.map((x) => x.toFixed(0)).join(' | ')} | ${all.toFixed(0)} |`,
      );
    }
    // What each process costs with no request at all (its jobs and timers), per request of the rate above.
    const idle = Object.fromEntries(processes.map((p) => [p, processCpuMicros(system.pid(p))]));
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const idleCpu = processes.map((p) => (processCpuMicros(system.pid(p)) - idle[p]) / (RATE * SECONDS));
    console.log(`| (no requests, per request of the rate) | | | | ${idleCpu.map((x) => x.toFixed(0)).join(' | ')} | |`);
    console.log('\n| process | resident MiB | peak resident MiB |\n|---|---|---|');
    for (const p of processes) {
      const pid = system.pid(p);
      console.log(`| ${p} | ${memoryMiB(pid, 'VmRSS').toFixed(0)} | ${memoryMiB(pid, 'VmHWM').toFixed(0)} |`);
    }
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
