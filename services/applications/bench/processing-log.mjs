// npm run bench:processing-log (services/applications; also part of npm run bench): what the processing log
// (Logboek Dataverwerkingen, ADR 0182) costs a read and a submit. Two whole systems as processes (tools/launcher),
// side by side on the same PostgreSQL and NATS, each with databases and an event stream of its own and 100 000
// applications seeded: one with LDV_LOG=off, one with LDV_LOG=on. Each route is driven through a system's gateway
// at a fixed, evenly spaced rate in short slices that alternate between the two (off, on, on, off, …), so that
// whatever the machine does meanwhile (another tenant of the host, a checkpoint, the disk) falls on both alike; the
// system not under load idles. Prints p50/p99 and the CPU per request of the applications service (which writes
// the records), the audit service (which stores them), the gateway, and PostgreSQL and NATS when they run on this
// machine (from /proc), per slice pair, then one p99 per setting over all its slices.
// BENCH_RATE (200), BENCH_SLICE_SECONDS (8), BENCH_SLICES (8 per setting and route), BENCH_WARM_SECONDS (15, each
// system and route before its slices), BENCH_ROUTES=list,submit (only the routes whose name holds one of the words).
// BENCH_LDV_SPOOL=0: the log without its spool (ADR 0269; on by default, as deployed); BENCH_LDV_SPOOL_DIR: where
// (default /dev/shm/register-bench-spool-<uid>, in memory as deployed, ADR 0270; a directory on disk to compare).
// BENCH_LDV_CONTROL=1: the "on" system runs with the log off too, to measure how far two equal systems' p99s differ
// on this machine (the noise the comparison stands on).
// Infrastructure: DATABASE_URL / NATS_URL, else embedded; the streams are deleted at the end. Diagnosis:
// BENCH_APPLICATIONS_NODE_OPTIONS and BENCH_AUDIT_NODE_OPTIONS are those services' NODE_OPTIONS (both systems).
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure } from '@register/launcher';
import { createDatabase, IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';
import { machineCpuMicros, steadyLoad, summary } from '@register/steady-load';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const logger = pino({ level: 'warn' });
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 8);
const SLICES = Number(process.env.BENCH_SLICES ?? 8);
// V8 keeps optimising a request path for 10-20 s of load (ADR 0058); each slice's generator warms its own for 1 s.
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 15);
const GENERATOR_WARM_SECONDS = 1;
const LOGS = ['off', 'on'];
const CONTROL = process.env.BENCH_LDV_CONTROL === '1';
const WORDS = (process.env.BENCH_ROUTES ?? '')
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);
const selected = (name) => WORDS.length === 0 || WORDS.some((w) => name.includes(w));

async function seed(db) {
  await sql`INSERT INTO applications
      (id, owner, type, status_tag, referentie, document_ids, created_at, updated_at, submitted_at)
    SELECT gen_random_uuid(), 'b' || lpad((g % 10000)::text, 8, '0'), 'herregistratie', 'Toegekend',
      'AV-2026-L' || lpad(g::text, 6, '0'), '[]'::jsonb, now(), now(), now()
    FROM generate_series(1, 100000) g`.execute(db);
  // Fresh Concept intakes for every submit of the warm-up and of every slice, one per owner.
  const drafts = RATE * (WARM_SECONDS + (SLICE_SECONDS + GENERATOR_WARM_SECONDS) * SLICES) + 1000;
  await sql`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at)
    SELECT gen_random_uuid(), 's' || lpad(g::text, 8, '0'), 'intake', 'Concept', '[]'::jsonb, now(), now()
    FROM generate_series(1, ${drafts}) g`.execute(db);
  // The seed's own after-effects stay out of the measured slices: autovacuum of the fresh rows, their WAL's checkpoint.
  await sql`VACUUM (ANALYZE) applications`.execute(db);
  await sql`CHECKPOINT`.execute(db);
  return (await sql`SELECT id, owner FROM applications WHERE owner LIKE 's%' ORDER BY owner`.execute(db)).rows;
}

/** One whole system with the log `log`: its own databases (prefix), event stream and ports. */
async function startSystem(infra, log) {
  const prefix = `ldvbench_${log}`;
  await dropSystemDatabases(infra.postgresUrl, prefix);
  const events = benchEvents(prefix);
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()])));
  const nodeOptions = (name) => (process.env[name] ? { NODE_OPTIONS: process.env[name] } : {});
  // As deployed (deploy/k8s/base/config/register.env): a read's records wait in a spool in memory and travel in
  // batches (ADR 0269, 0270); BENCH_LDV_SPOOL=0 measures the log without it (each read's records to the stream).
  const memory = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const spoolDir = path.join(
    process.env.BENCH_LDV_SPOOL_DIR ?? path.join(memory, `register-bench-spool-${os.userInfo().uid}`),
    log,
  );
  rmSync(spoolDir, { recursive: true, force: true });
  const spool = () => (process.env.BENCH_LDV_SPOOL === '0' ? {} : { LDV_SPOOL_DIR: spoolDir });
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: prefix,
    logDir: path.join(root, '.data', 'bench', 'logs', log),
    logLevel: 'warn',
    extraEnv: {
      applications: { LDV_LOG: CONTROL ? 'off' : log, ...spool(), ...nodeOptions('BENCH_APPLICATIONS_NODE_OPTIONS') },
      audit: nodeOptions('BENCH_AUDIT_NODE_OPTIONS'),
    },
  });
  const stop = async () => {
    await system.stopAll();
    rmSync(spoolDir, { recursive: true, force: true });
    await dropSystemDatabases(infra.postgresUrl, prefix);
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
  };
  try {
    for (const s of ['reference', 'documents', 'audit', 'applications', 'gateway']) await system.start(s);
    const url = new URL(infra.postgresUrl);
    url.pathname = `/${prefix}_applications`;
    const database = createDatabase(url.toString(), logger);
    const drafts = await seed(database.db);
    await database.close();
    return { log, system, drafts, nextDraft: 0, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const ROUTES = [
  {
    name: 'GET /api/v1/applications (own list)',
    url: (s) => `${s.system.url('gateway')}/api/v1/applications`,
    request: () => () => ({ headers: { 'x-subject': 'b00000042' } }),
  },
  {
    name: 'POST /api/v1/applications/:id/submit',
    url: (s) => s.system.url('gateway'),
    request: (s) => () => {
      const d = s.drafts[s.nextDraft++];
      return {
        method: 'POST',
        path: `/api/v1/applications/${d.id}/submit`,
        headers: { 'x-subject': d.owner, 'content-type': 'application/json' },
        body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }),
      };
    },
  },
];

const PROCESSES = ['applications', 'audit', 'gateway', 'postgres', 'nats'];

const cpuNow = (system) =>
  machineCpuMicros({
    applications: system.pid('applications'),
    audit: system.pid('audit'),
    gateway: system.pid('gateway'),
  });

/** One slice of `route` on system `s`: its latencies and the CPU per request of each process over it. */
async function slice(s, route, seconds, warmSeconds) {
  let before = null;
  const r = await steadyLoad({
    url: route.url(s),
    rate: RATE,
    seconds,
    warmSeconds,
    request: route.request(s),
    onMeasuring: () => (before = cpuNow(s.system)),
  });
  const after = cpuNow(s.system);
  return { ...r, cpu: Object.fromEntries(PROCESSES.map((p) => [p, (after[p] - before[p]) / r.requests])) };
}

const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const systems = [];
  try {
    for (const log of LOGS) systems.push(await startSystem(infra, log));
    console.log(
      `\n${RATE} req/s per route through each system's gateway, evenly spaced; ${SLICES} slices of ` +
        `${SLICE_SECONDS} s per setting and route, alternating (after ${WARM_SECONDS} s of warm-up each)` +
        (CONTROL ? '; CONTROL: the "on" system has the log off too\n' : '\n'),
    );
    const pooled = [];
    for (const route of ROUTES.filter((r) => selected(r.name))) {
      for (const s of systems) await slice(s, route, WARM_SECONDS, 1);
      const columns = PROCESSES.map((p) => `${p} µs/req`).join(' | ');
      console.log(
        `\n${route.name}\n\n| pair | log | p50 ms | p99 ms | errors | ${columns} |\n` +
          `|---|---|---|---|---|${PROCESSES.map(() => '---|').join('')}`,
      );
      const results = { off: [], on: [] };
      for (let pair = 1; pair <= SLICES; pair++) {
        // off, on, then on, off: what drifts within a pair weighs on both.
        const order = pair % 2 === 1 ? systems : [...systems].reverse();
        for (const s of order) {
          const r = await slice(s, route, SLICE_SECONDS, GENERATOR_WARM_SECONDS);
          results[s.log].push(r);
          console.log(
            `| ${pair} | ${s.log} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ` +
              `${PROCESSES.map((p) => r.cpu[p].toFixed(0)).join(' | ')} |`,
          );
        }
      }
      pooled.push({ route, results });
    }
    console.log('\nAll slices of a setting pooled: p99 with the log on / off; CPU per request (µs, mean) on / off:');
    for (const { route, results } of pooled) {
      const [on, off] = ['on', 'off'].map((log) => summary(results[log].flatMap((r) => r.latencies)));
      const errors = (log) => results[log].reduce((a, r) => a + r.errors, 0);
      const cpuOf = (log, p) => mean(results[log].map((r) => r.cpu[p])).toFixed(0);
      const cpus = PROCESSES.map((p) => `${p} ${cpuOf('on', p)} / ${cpuOf('off', p)}`).join(', ');
      // One slow slice (the host, a checkpoint) weighs on the pooled p99; the median of the pairs' ratios does not.
      const pairRatio = median(results.on.map((r, i) => r.p99 / results.off[i].p99));
      console.log(
        `  ${route.name}: p99 ${(on.p99 / off.p99).toFixed(2)} (${on.p99.toFixed(1)} / ${off.p99.toFixed(1)} ms; ` +
          `median of the pairs' ratios ${pairRatio.toFixed(2)}), ` +
          `p50 ${on.p50.toFixed(1)} / ${off.p50.toFixed(1)} ms, ${on.requests} / ${off.requests} requests, ` +
          `${errors('on')} / ${errors('off')} errors; ${cpus}`,
      );
    }
  } finally {
    for (const s of systems) await s.stop();
    await infra.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
