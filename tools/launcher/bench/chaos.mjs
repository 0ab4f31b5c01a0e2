// npm run bench -w @register/launcher (issue 25 §4, ADR 0203): the replicated system (npm run cluster's) under a
// steady load of submits with documents, uploads, letter saves and flag changes, while in turn one copy of each
// service is SIGKILLed and restarted, a NATS node is SIGKILLed and restarted, PostgreSQL is restarted (fast
// shutdown) and a gateway copy is drained with SIGTERM. Per fault: requests, failed, 5xx, acknowledged writes
// lost, events lost and doubled, and the time until p99 is back under 50 ms.
// Everything is its own: an embedded PostgreSQL, three nats-servers, an S3 endpoint (a child process) on free
// ports, the ZGW simulator in this process, the load in a worker thread so that neither delays reading its answers.
// CHAOS_SECONDS (300), CHAOS_RATE (operations a second, 5), CHAOS_DOWN_SECONDS (5),
// CHAOS_FAULTS (only the faults whose name contains one of these comma-separated words; all when unset),
// CHAOS_WARMUP_SECONDS (20: load before the baseline, reported in a row of its own).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import pino from 'pino';
import { freePort, startEmbeddedPostgres } from '@register/embedded';
import { summary } from '@register/steady-load';
import { startZgwSimulator } from '@register/zgw-sim';
import { Cluster, startNatsCluster, zgwSettingsOf } from '../dist/index.js';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 300);
const RATE = Number(process.env.CHAOS_RATE ?? 5);
const DOWN_SECONDS = Number(process.env.CHAOS_DOWN_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.CHAOS_WARMUP_SECONDS ?? 20);
const ONLY = (process.env.CHAOS_FAULTS ?? '').split(',').filter(Boolean);
const SECRET = 'chaos-bench-secret-0123456789abcdef0123';
const run = Math.random().toString(36).slice(2, 8);
const prefix = 'chaos';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The p99 the steady-load library computes, so the windows' figures and the operations' agree. */
const p99 = (latencies) => summary(latencies).p99;

/** s3-endpoint.mjs as a child process: its endpoint, and `stop`. */
async function startS3Endpoint(dir) {
  const child = fork(new URL('./s3-endpoint.mjs', import.meta.url), [dir, String(await freePort())]);
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the S3 endpoint exited (${code}) before it listened`);
  });
  const [endpoint] = await Promise.race([once(child, 'message'), exited]);
  exited.catch(() => undefined);
  const stop = async () => {
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  return { ...endpoint, stop };
}

async function startWorld(dir) {
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres(path.join(dir, 'postgres'), pgPort);
  const nats = await startNatsCluster(path.join(dir, 'nats'));
  const s3 = await startS3Endpoint(path.join(dir, 's3'));
  const sim = await startZgwSimulator({ secret: SECRET, clientId: 'register', logger: pino({ level: 'silent' }) });
  const infra = {
    postgresUrl: postgres.url,
    natsUrl: nats.url,
    s3: { endpoint: s3.url, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: s3.bucket },
    embedded: [],
    stop: async () => undefined,
    zgw: zgwSettingsOf(sim, { clientId: 'register', secret: SECRET }),
  };
  // As in Kubernetes (deploy/k8s): a draining gateway keeps serving for longer than the balancer takes to see it
  // unready (two failed checks a second apart), so no new request reaches it after it stopped listening.
  const drain = { SHUTDOWN_DRAIN_MS: '5000' };
  const cluster = new Cluster({
    root,
    infra,
    dataDir: dir,
    logDir: path.join(dir, 'logs'),
    databasePrefix: prefix,
    logLevel: 'warn',
    settings: {},
    extraEnv: { gateway: drain },
  });
  await cluster.start();
  const stop = async () => {
    await cluster.stop();
    await nats.stop();
    await s3.stop();
    await sim.close();
    await postgres.stop();
    // Run as root its data lives outside `dir` (reachableDataDir): it goes too.
    rmSync(postgres.dataDir, { recursive: true, force: true });
  };
  return { cluster, nats, sim, postgresUrl: () => postgres.url, restartPostgres: () => postgres.restart(), stop };
}

/** The faults in turn: each is applied, and undone after CHAOS_DOWN_SECONDS. */
function faults(world) {
  const { cluster, nats } = world;
  const copy = cluster.copies[1];
  const kill = (s) => ({
    name: `SIGKILL one ${s} copy, restart`,
    apply: () => copy.kill(s),
    undo: () => copy.start(s),
  });
  return [
    ...['applications', 'documents', 'letters', 'reference', 'audit', 'gateway'].map(kill),
    { name: 'SIGKILL one NATS node, restart', apply: () => nats.nodes[0].kill(), undo: () => nats.nodes[0].start() },
    { name: 'PostgreSQL fast restart', apply: () => world.restartPostgres(), undo: async () => undefined },
    {
      name: 'drain one gateway copy (SIGTERM), start it again',
      apply: () => cluster.copies[2].stop('gateway'),
      undo: () => cluster.copies[2].start('gateway'),
    },
  ];
}

async function query(url, database, text, values) {
  const target = new URL(url);
  target.pathname = `/${prefix}_${database}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Everything published consumed and every case mirrored (bounded: a stuck system still gets its table). */
async function settle(base) {
  const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };
  for (let i = 0; i < 240; i++) {
    const res = await fetch(`${base}/api/v1/admin/system`, { headers: admin }).catch(() => null);
    const body = res?.ok ? await res.json() : null;
    if (body && body.caseMirror?.backlog === 0 && body.consumers.every((c) => c.pending === 0)) return true;
    await sleep(500);
  }
  return false;
}

/** What was acknowledged and is not there, and what happened twice, per write. */
async function account(world, writes) {
  const url = world.postgresUrl();
  const ids = writes.submits.map((s) => s.id);
  const stored = new Set(
    (await query(url, 'applications', 'SELECT id FROM applications WHERE id = ANY($1)', [ids])).map((r) => r.id),
  );
  const docs = new Set(
    (
      await query(url, 'documents', 'SELECT id FROM document WHERE id = ANY($1)', [
        writes.uploads.map((u) => u.documentId),
      ])
    ).map((r) => r.id),
  );
  const audit = new Map(
    (
      await query(
        url,
        'audit',
        'SELECT correlation_id, count(*)::int AS n FROM authz_audit WHERE correlation_id = ANY($1) GROUP BY 1',
        [writes.flags.map((f) => f.correlationId)],
      )
    ).map((r) => [r.correlation_id, r.n]),
  );
  const zaken = (ref) => world.sim.state.zakenWithIdentificatie(ref).length;
  return [
    ...writes.submits.map((s) => ({ t: s.t, lost: !stored.has(s.id), events: zaken(s.referentie) })),
    ...writes.uploads.map((u) => ({ t: u.t, lost: !docs.has(u.documentId), events: 1 })),
    ...writes.flags.map((f) => ({ t: f.t, lost: false, events: audit.get(f.correlationId) ?? 0 })),
  ];
}

/**
 * Seconds from the fault until p99 is back under 50 ms: the first whole second from which on the p99 of every
 * request answered until the window's end is under 50 ms (0 when the whole window's is). The span from there to the
 * end holds at least 5 s of requests, so its p99 is not a single request's latency; when no such second exists the
 * answer is the window's length with a ">" before it.
 */
function recoveredAfter(requests, from, to) {
  const answered = requests.filter((r) => r.t >= from && r.t < to && r.status > 0);
  for (let s = from; s + 5000 <= to; s += 1000) {
    if (p99(answered.filter((r) => r.t >= s).map((r) => r.ms)) < 50) return `${(s - from) / 1000}`;
  }
  return `> ${Math.round((to - from) / 1000)}`;
}

/** The steady load (chaos-load.mjs) in a worker thread; `stop` ends it and gives its requests and writes. */
function startLoad(base) {
  const started = Date.now();
  const worker = new Worker(new URL('./chaos-load-worker.mjs', import.meta.url), {
    workerData: { base, run, rate: RATE, started },
  });
  const stop = () =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage('stop');
    }).finally(() => worker.terminate());
  return { elapsed: () => Date.now() - started, stop };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'register-chaos-'));
  const world = await startWorld(dir);
  try {
    const list = faults(world).filter((f) => ONLY.length === 0 || ONLY.some((word) => f.name.includes(word)));
    const window = (SECONDS * 1000) / (list.length + 1);
    const load = startLoad(world.cluster.url);
    // The first seconds of load find every process's code cold: they get a row of their own.
    const windows = [
      { name: `warm-up (first ${WARMUP_SECONDS} s)`, from: 0 },
      { name: 'no fault (baseline)', from: WARMUP_SECONDS * 1000 },
    ];
    await sleep(WARMUP_SECONDS * 1000 + window);
    for (const fault of list) {
      const from = load.elapsed();
      windows.push({ name: fault.name, from });
      await fault.apply();
      await sleep(DOWN_SECONDS * 1000);
      await fault.undo();
      await sleep(Math.max(0, window - (load.elapsed() - from)));
    }
    const { requests: all, writes: done } = await load.stop();
    const end = load.elapsed();
    const settled = await settle(world.cluster.url);
    const writes = await account(world, done);
    const rows = windows.map((w, i) => {
      const to = windows[i + 1]?.from ?? end;
      const inWindow = (x) => x.t >= w.from && x.t < to;
      const requests = all.filter(inWindow);
      const acked = writes.filter(inWindow);
      return [
        w.name,
        requests.length,
        requests.filter((r) => r.status === 0 || r.status >= 500).length,
        requests.filter((r) => r.status >= 500).length,
        requests.filter((r) => r.status >= 500 && r.status !== 503).length,
        acked.filter((x) => x.lost).length,
        acked.filter((x) => !x.lost && x.events === 0).length,
        acked.filter((x) => x.events > 1).length,
        p99(requests.filter((r) => r.status > 0).map((r) => r.ms)),
        `${recoveredAfter(all, w.from, to)} s`,
      ];
    });
    const head = [
      'fault',
      'requests',
      'failed',
      '5xx',
      '5xx other than 503',
      'acked writes lost',
      'events lost',
      'events doubled',
      'p99 ms',
      'p99 < 50 ms after',
    ];
    console.log(`\n${SECONDS} s at ${RATE} operations/s; settled: ${settled}\n`);
    console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    // Which requests are slow: latency per operation and method over the whole run.
    console.log('\nlatency by operation (answered requests): p50 / p99 / max ms');
    const byKind = new Map();
    for (const r of all.filter((x) => x.status > 0)) {
      const key = `${r.kind} ${r.method}`;
      if (!byKind.has(key)) byKind.set(key, []);
      byKind.get(key).push(r.ms);
    }
    for (const [key, ms] of byKind) {
      const s = summary(ms);
      console.log(`- ${key}: ${s.p50} / ${s.p99} / ${s.max} (${s.requests})`);
    }
    // Whether the system slows down over the run whatever the faults: p99 of each half minute.
    const halves = [];
    for (let s = 0; s < end; s += 30_000)
      halves.push(p99(all.filter((r) => r.t >= s && r.t < s + 30_000 && r.status > 0).map((r) => r.ms)));
    console.log(`\np99 ms per half minute: ${halves.join(', ')}`);
    // Where every failure came from, per window: the operation, the method and who answered.
    console.log('\nfailures by window: count × kind, method, what answered');
    for (const [i, w] of windows.entries()) {
      const to = windows[i + 1]?.from ?? end;
      const failed = all.filter((r) => r.t >= w.from && r.t < to && (r.status === 0 || r.status >= 500));
      const counts = new Map();
      for (const r of failed) {
        const key = `${r.status} ${r.kind} ${r.method} ${r.why}`;
        const seen = counts.get(key) ?? { n: 0, first: r.t, last: r.t };
        counts.set(key, { n: seen.n + 1, first: Math.min(seen.first, r.t), last: Math.max(seen.last, r.t) });
      }
      const at = (ms) => ((ms - w.from) / 1000).toFixed(1);
      const parts = [...counts].map(([k, c]) => `${c.n} × ${k} (+${at(c.first)}…+${at(c.last)} s)`);
      if (parts.length) console.log(`- ${w.name}: ${parts.join('; ')}`);
    }
  } finally {
    await world.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
