import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure, type Service } from '@register/launcher';
import { steadyLoad, type PlannedRequest, type SteadyLoadSummary } from '@register/steady-load';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';

// npm run bench:slow-clients -w @register/gateway (ADR 0100): ordinary requests at a fixed rate through the
// gateway, once alone and once while 20 stalled and 20 trickling clients (each replaced as soon as the gateway
// lets it go) hold bodies open on a write route of every service. Targets: 0 ordinary failures, p99 within 20 % of
// the run without slow clients, every slow client's socket released within the window (plus a second of slack).
const RATE = Number(process.env['BENCH_RATE'] ?? 50);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 60);
const WARM_SECONDS = Number(process.env['BENCH_WARM_SECONDS'] ?? 10);
const STALLED = Number(process.env['BENCH_STALLED'] ?? 20);
const TRICKLING = Number(process.env['BENCH_TRICKLING'] ?? 20);
const WINDOW_MS = 10_000;
const SLACK_MS = 1000;

const drafter = { 'X-Subject': '900000001' };
const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };
const ORDINARY: PlannedRequest[] = [
  { path: '/api/v1/flags', headers: drafter },
  { path: '/api/v1/applications', headers: drafter },
  { path: '/api/v1/brief', headers: drafter },
  { path: '/api/v1/uploads/status?localIds=bench', headers: drafter },
  { path: '/api/v1/admin/audit?limit=1', headers: admin },
];

const json = { 'Content-Type': 'application/json' };
const pad = (fields: object) => JSON.stringify({ ...fields, pad: 'x'.repeat(8000) });
const boundary = 'bench-slow-boundary';
const multipart =
  `--${boundary}\r\nContent-Disposition: form-data; name="wizardId"\r\n\r\nintake\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="categoryId"\r\n\r\noverig\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="traag.pdf"\r\n` +
  `Content-Type: application/pdf\r\n\r\n%PDF-1.4\n${'x'.repeat(64_000)}\r\n--${boundary}--\r\n`;
/** A write route of every service (audit's only route is a read: it carries a body all the same). */
const SLOW: Array<{ method: string; path: string; headers: Record<string, string>; body: string }> = [
  {
    method: 'POST',
    path: '/api/v1/change-requests',
    headers: { ...drafter, ...json },
    body: pad({ telefoon: '0612345678' }),
  },
  {
    method: 'POST',
    path: '/api/v1/uploads',
    headers: { ...drafter, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: multipart,
  },
  { method: 'PUT', path: '/api/v1/brief', headers: { ...drafter, ...json }, body: pad({ sections: [] }) },
  {
    method: 'PUT',
    path: '/api/v1/admin/flags/herregistratie-aanvragen',
    headers: { ...admin, ...json },
    body: pad({ enabled: true }),
  },
  { method: 'GET', path: '/api/v1/admin/audit', headers: { ...admin, ...json }, body: pad({}) },
];

interface SlowFigures {
  opened: number;
  released: number[];
  answers: Record<string, number>;
  /** The longest hold per kind, route and answer: where a slow release comes from. */
  slowest: Record<string, number>;
}

/** `count` clients of one kind, each replaced when the gateway lets it go, until `until`. */
function holdSlowClients(port: number, kind: 'stall' | 'trickle', count: number, until: number, out: SlowFigures) {
  let next = 0;
  const open = (): Promise<void> => {
    if (Date.now() >= until) return Promise.resolve();
    const route = SLOW[next++ % SLOW.length]!;
    out.opened += 1;
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const head =
      `${route.method} ${route.path} HTTP/1.1\r\nHost: bench\r\n` +
      Object.entries({ ...route.headers, 'Content-Length': String(route.body.length) })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    let at = Math.floor(route.body.length / 2);
    socket.write(head + route.body.slice(0, at));
    const trickle =
      kind === 'trickle' ? setInterval(() => !socket.destroyed && socket.write(route.body[at++]!), 1000) : undefined;
    let status = 'none';
    socket.on('data', (c: Buffer) => {
      if (status === 'none') status = /^HTTP\/1\.1 (\d{3})/.exec(c.toString('latin1'))?.[1] ?? 'garbled';
    });
    socket.on('error', () => undefined);
    return new Promise<void>((resolve) =>
      socket.once('close', () => {
        clearInterval(trickle);
        const heldMs = Date.now() - started;
        const label = `${kind} ${route.method} ${route.path} → ${status}`;
        out.released.push(heldMs);
        out.answers[status] = (out.answers[status] ?? 0) + 1;
        out.slowest[label] = Math.max(out.slowest[label] ?? 0, heldMs);
        resolve();
      }),
    ).then(open);
  };
  return Promise.all(Array.from({ length: count }, open));
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Microseconds of CPU (user + system) the processes have used, from /proc (clock ticks of 10 ms). */
function cpuMicros(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
  }, 0);
}

interface RunFigures {
  load: SteadyLoadSummary;
  /** CPU of every service process over the run (warm-up included) per ordinary request, µs. */
  cpuUs: number;
}

async function ordinaryLoad(gateway: string, pids: number[]): Promise<RunFigures> {
  const before = cpuMicros(pids);
  const load = await steadyLoad({
    url: gateway,
    rate: RATE,
    seconds: SECONDS,
    warmSeconds: WARM_SECONDS,
    requests: ORDINARY,
  });
  return { load, cpuUs: (cpuMicros(pids) - before) / (RATE * (SECONDS + WARM_SECONDS)) };
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const events = benchEvents('slowclients');
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: 'bench_slow',
    logDir: path.join(root, '.data', 'bench', 'logs-slow'),
    logLevel: 'warn',
  });
  let failed: boolean | undefined;
  try {
    await system.startAll();
    const gateway = system.url('gateway');
    const pids = SERVICES.map((s) => system.pid(s)).filter((pid): pid is number => pid !== undefined);
    const aloneRun = await ordinaryLoad(gateway, pids);
    const alone = aloneRun.load;
    const slow: SlowFigures = { opened: 0, released: [], answers: {}, slowest: {} };
    const until = Date.now() + (WARM_SECONDS + SECONDS) * 1000;
    const held = Promise.all([
      holdSlowClients(ports.gateway, 'stall', STALLED, until, slow),
      holdSlowClients(ports.gateway, 'trickle', TRICKLING, until, slow),
    ]);
    const besideRun = await ordinaryLoad(gateway, pids);
    const beside = besideRun.load;
    await held;
    const ratio = beside.p99 / alone.p99;
    const maxRelease = Math.max(...slow.released);
    const row = (name: string, r: RunFigures) =>
      `| ${name} | ${r.load.requests} | ${r.load.errors} | ${r.load.p50.toFixed(1)} | ${r.load.p99.toFixed(1)} | ` +
      `${r.cpuUs.toFixed(0)} |`;
    process.stdout.write(
      [
        `\nordinary load: ${RATE} req/s for ${SECONDS} s (after ${WARM_SECONDS} s warm-up), through the gateway\n`,
        '| run | requests | failed | p50 ms | p99 ms | CPU µs per ordinary request (all services) |',
        '|---|---|---|---|---|---|',
        row('alone', aloneRun),
        row(`beside ${STALLED} stalled + ${TRICKLING} trickling clients`, besideRun),
        '',
        `p99 beside / alone: ${ratio.toFixed(2)} (target ≤ 1.20)`,
        `slow clients opened: ${slow.opened}; answers: ${JSON.stringify(slow.answers)}`,
        `socket released after (ms): median ${quantile(slow.released, 0.5)}, max ${maxRelease} ` +
          `(target ≤ ${WINDOW_MS + SLACK_MS})`,
        'longest hold per slow client, route and answer (ms):',
        ...Object.entries(slow.slowest).map(([label, ms]) => `  ${label}: ${ms}`),
        '',
      ].join('\n'),
    );
    failed = beside.errors > 0 || alone.errors > 0 || ratio > 1.2 || maxRelease > WINDOW_MS + SLACK_MS;
  } finally {
    await system.stopAll();
    await dropSystemDatabases(infra.postgresUrl, 'bench_slow');
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    await infra.stop();
  }
  if (failed) {
    process.stdout.write('a target was missed\n');
    process.exitCode = 1;
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
