// npm run bench:processing-log (services/applications; also part of npm run bench): what the processing log
// (Logboek Dataverwerkingen, ADR 0182) costs a read and a submit. The whole system as processes (tools/launcher),
// 100 000 applications seeded; the applications service alternately with LDV_LOG=off and on (restarted between
// rounds, the same database), each route driven through the gateway at a fixed, evenly spaced rate. Prints p50/p99
// per round and the CPU per request of the applications service (which writes the records), the audit service
// (which stores them), the gateway, and PostgreSQL and NATS when they run on this machine, from /proc.
// BENCH_RATE (200), BENCH_SECONDS (15), BENCH_ROUNDS (4), BENCH_WARM_SECONDS (10). Infrastructure: DATABASE_URL /
// NATS_URL, else embedded; the system's events go to a stream of the bench's own, deleted at the end. Diagnosis:
// BENCH_APPLICATIONS_NODE_OPTIONS and BENCH_AUDIT_NODE_OPTIONS are those services' NODE_OPTIONS.
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure } from '@register/launcher';
import { createDatabase, IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';
import { commandCpuMicros, processCpuMicros, steadyLoad, summary } from '@register/steady-load';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const logger = pino({ level: 'warn' });
const PREFIX = 'ldvbench';
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
// Each round restarts the applications service: V8 keeps optimising a request path for 10-20 s of load (ADR 0058).
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 10);

async function seed(db) {
  await sql`INSERT INTO applications
      (id, owner, type, status_tag, referentie, document_ids, created_at, updated_at, submitted_at)
    SELECT gen_random_uuid(), 'b' || lpad((g % 10000)::text, 8, '0'), 'herregistratie', 'Toegekend',
      'AV-2026-L' || lpad(g::text, 6, '0'), '[]'::jsonb, now(), now(), now()
    FROM generate_series(1, 100000) g`.execute(db);
  // Fresh Concept intakes for every submit of every round, one per owner.
  const drafts = RATE * (SECONDS + WARM_SECONDS) * ROUNDS * 2 + 1000;
  await sql`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at)
    SELECT gen_random_uuid(), 's' || lpad(g::text, 8, '0'), 'intake', 'Concept', '[]'::jsonb, now(), now()
    FROM generate_series(1, ${drafts}) g`.execute(db);
  // The seed's own after-effects stay out of the measured rounds: autovacuum of the fresh rows, their WAL's checkpoint.
  await sql`VACUUM (ANALYZE) applications`.execute(db);
  await sql`CHECKPOINT`.execute(db);
  return (await sql`SELECT id, owner FROM applications WHERE owner LIKE 's%' ORDER BY owner`.execute(db)).rows;
}

async function main() {
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  await dropSystemDatabases(infra.postgresUrl, PREFIX);
  const events = benchEvents(PREFIX, [`audit_${PREFIX}`, `audit_${PREFIX}_processing`, `documents_${PREFIX}`]);
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()])));
  // Read at each start of the applications service: the rounds switch it.
  const applicationsEnv = {
    LDV_LOG: 'off',
    ...(process.env.BENCH_APPLICATIONS_NODE_OPTIONS
      ? { NODE_OPTIONS: process.env.BENCH_APPLICATIONS_NODE_OPTIONS }
      : {}),
  };
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: PREFIX,
    logDir: path.join(root, '.data', 'bench', 'logs'),
    logLevel: 'warn',
    // Consumers of its own, removed at the end: a durable consumer left behind keeps a stream's every later message
    // pending for it.
    extraEnv: {
      applications: applicationsEnv,
      audit: {
        AUDIT_CONSUMER: `audit_${PREFIX}`,
        ...(process.env.BENCH_AUDIT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_AUDIT_NODE_OPTIONS } : {}),
      },
      documents: { APPLICATION_EVENTS_CONSUMER: `documents_${PREFIX}` },
    },
  });
  try {
    for (const s of ['reference', 'documents', 'audit', 'applications', 'gateway']) await system.start(s);
    const url = new URL(infra.postgresUrl);
    url.pathname = `/${PREFIX}_applications`;
    const database = createDatabase(url.toString(), logger);
    const drafts = await seed(database.db);
    await database.close();
    let nextDraft = 0;
    const gateway = system.url('gateway');
    const routes = [
      {
        name: 'GET /api/v1/applications (own list)',
        url: `${gateway}/api/v1/applications`,
        request: () => ({ headers: { 'x-subject': 'b00000042' } }),
      },
      {
        name: 'POST /api/v1/applications/:id/submit',
        url: gateway,
        request: () => {
          const d = drafts[nextDraft++];
          return {
            method: 'POST',
            path: `/api/v1/applications/${d.id}/submit`,
            headers: { 'x-subject': d.owner, 'content-type': 'application/json' },
            body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }),
          };
        },
      },
    ];
    console.log(
      `\n${RATE} req/s for ${SECONDS} s per route and round through the gateway, evenly spaced; ${ROUNDS} rounds\n`,
    );
    console.log(
      '| round | log | route | p50 ms | p99 ms | errors | applications µs/req | audit µs/req | gateway µs/req | ' +
        'PostgreSQL µs/req | NATS µs/req |\n' +
        '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    const results = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Off first in odd rounds, on first in even ones: what drifts over a run (growing tables) weighs on both.
      for (const log of round % 2 === 1 ? ['off', 'on'] : ['on', 'off']) {
        applicationsEnv.LDV_LOG = log;
        await system.stop('applications');
        await system.start('applications');
        for (const route of routes) {
          const pids = {
            applications: system.pid('applications'),
            audit: system.pid('audit'),
            gateway: system.pid('gateway'),
          };
          // A few seconds of the same load first: the JIT and the pools warm, outside the measured window.
          await steadyLoad({ url: route.url, rate: RATE, seconds: WARM_SECONDS, request: route.request });
          const cpuNow = () => ({
            ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMicros(pid)])),
            postgres: commandCpuMicros('postgres'),
            nats: commandCpuMicros('nats-server'),
          });
          const before = cpuNow();
          const r = await steadyLoad({ url: route.url, rate: RATE, seconds: SECONDS, request: route.request });
          const after = cpuNow();
          const cpu = Object.fromEntries(Object.keys(after).map((k) => [k, (after[k] - before[k]) / r.requests]));
          results.push({ round, log, route: route.name, ...r, cpu });
          console.log(
            `| ${round} | ${log} | ${route.name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ` +
              `${cpu.applications.toFixed(0)} | ${cpu.audit.toFixed(0)} | ${cpu.gateway.toFixed(0)} | ` +
              `${cpu.postgres.toFixed(0)} | ${cpu.nats.toFixed(0)} |`,
          );
        }
      }
    }
    // The rounds of a setting pooled: one p99 of all their requests (a single stall in one round, a checkpoint or
    // an autovacuum, then weighs as the share of requests it delayed, not as a quarter of a mean of p99s).
    console.log('\nAll rounds pooled, per route: p99 with the log on / off; CPU per request (µs, mean) on / off:');
    for (const route of routes) {
      const of = (log) => results.filter((x) => x.route === route.name && x.log === log);
      const pooled = (log) => summary(of(log).flatMap((x) => x.latencies));
      const cpu = (log, k) => of(log).reduce((a, x) => a + x.cpu[k], 0) / of(log).length;
      const [on, off] = [pooled('on'), pooled('off')];
      const cpus = ['applications', 'audit', 'gateway', 'postgres', 'nats']
        .map((k) => `${k} ${cpu('on', k).toFixed(0)} / ${cpu('off', k).toFixed(0)}`)
        .join(', ');
      console.log(
        `  ${route.name}: p99 ${(on.p99 / off.p99).toFixed(2)} (${on.p99.toFixed(1)} / ${off.p99.toFixed(1)} ms), ` +
          `p50 ${on.p50.toFixed(1)} / ${off.p50.toFixed(1)} ms, ${on.requests} / ${off.requests} requests; ${cpus}`,
      );
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
