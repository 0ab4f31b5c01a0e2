// npm run bench (services/applications): seeds 100 000 applications over 10 000 owners (half submitted) with one
// bulk INSERT … SELECT generate_series, then drives them at a fixed 200 req/s for 20 s per route, after 10 s
// unmeasured (submit: 16 000 submits), evenly spaced (@register/steady-load), and prints p50/p99/errors, the CPU per
// request of each process (the services, and PostgreSQL and NATS when they run on this machine, from /proc, over the
// measured part only) and EXPLAIN ANALYZE of the lists. Every service runs as its own process (tools/launcher), as
// in production, the audit service's consumers included; the load goes through the gateway with X-Subject /
// X-Medewerker headers (BENCH_DIRECT=1: the service itself, signed identities).
// Infrastructure: DATABASE_URL / NATS_URL / S3_ENDPOINT, else the embedded defaults.
// BENCH_ROUTES=werkvoorraad,health runs only the routes whose name contains one of the words (default: every
// route); BENCH_SUBMIT_WARM_REQUESTS (16 000) the submits before submit's measured ones; BENCH_GATEWAY_NODE_OPTIONS
// is the gateway's NODE_OPTIONS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof), and so on for each service
// (BENCH_APPLICATIONS_NODE_OPTIONS …).
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure } from '@register/launcher';
import { machineCpuMicros, steadyLoad } from '@register/steady-load';
import { createDatabase, IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const logger = pino({ level: 'warn' });
const PREFIX = 'appbench';
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
// Each route first runs this long unmeasured at the same rate (ADR 0058): a cold request path's first seconds are
// the JIT's and the query plans', not the steady state the target is about.
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 10);
// Submit first runs this many submits unmeasured (ADR 0280; BENCH_WARM_SECONDS, when given, instead): V8 moves the
// request path to its last tier (TurboFan) only after about 10 500 of them, in every Node process at once, a burst
// of compiles that holds both cores for a few hundred milliseconds. The 400-a-second target is about what follows.
const SUBMIT_WARM_REQUESTS = process.env.BENCH_WARM_SECONDS
  ? RATE * WARM_SECONDS
  : Number(process.env.BENCH_SUBMIT_WARM_REQUESTS ?? 16_000);
const ROUTES = (process.env.BENCH_ROUTES ?? '')
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);
const selected = (name) => ROUTES.length === 0 || ROUTES.some((w) => name.includes(w));

async function seed(db) {
  const t0 = Date.now();
  // 10 000 owners × 10 applications; even g submitted (Ingediend); odd g a Concept for the first two per
  // owner (one intake, one herregistratie: the one-Concept-per-type index) and decided after that.
  await sql`INSERT INTO applications (id, owner, type, status_tag, referentie, document_ids, created_at, updated_at,
    submitted_at)
    SELECT gen_random_uuid(), 'b' || lpad((g % 10000)::text, 8, '0'),
      CASE WHEN g <= 10000 THEN 'intake' WHEN g <= 20000 THEN 'herregistratie' WHEN g % 4 < 2 THEN 'intake'
      ELSE 'herregistratie' END,
      CASE WHEN g % 2 = 0 THEN 'Ingediend' WHEN g <= 20000 THEN 'Concept' ELSE 'Toegekend' END,
      CASE WHEN g % 2 = 0 OR g > 20000 THEN 'AV-2026-B' || lpad(g::text, 6, '0') END,
      '[]'::jsonb, now() - (g || ' seconds')::interval, now(), CASE WHEN g % 2 = 0 OR g > 20000
      THEN now() - (g || ' seconds')::interval END
    FROM generate_series(1, 100000) g`.execute(db);
  await sql`ANALYZE applications`.execute(db);
  console.log(`seeded 100000 applications in ${Date.now() - t0} ms`);
}

/** The processes a request may touch: the system's services, PostgreSQL and the NATS server (CPU µs from /proc). */
const PROCESSES = ['gateway', 'applications', 'documents', 'reference', 'audit', 'postgres', 'nats'];

const cpuNow = (system) => machineCpuMicros(Object.fromEntries(SERVICES.map((s) => [s, system.pid(s)])));

async function run(system, name, url, request = () => ({}), warmSeconds = WARM_SECONDS) {
  if (!selected(name)) return null;
  let before = null;
  const r = await steadyLoad({
    url,
    rate: RATE,
    seconds: SECONDS,
    warmSeconds,
    request,
    onMeasuring: () => (before = cpuNow(system)),
  });
  const after = cpuNow(system);
  const cpu = PROCESSES.map((p) => ((after[p] - before[p]) / r.requests).toFixed(0));
  console.log(
    `| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.requests} | ${r.errors} | ${cpu.join(' | ')} |`,
  );
  return r;
}

async function main() {
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const events = benchEvents('applbench');
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
    // BENCH_<SERVICE>_NODE_OPTIONS: that service's NODE_OPTIONS (a profile, a --require'd probe).
    extraEnv: Object.fromEntries(
      SERVICES.filter((s) => process.env[`BENCH_${s.toUpperCase()}_NODE_OPTIONS`]).map((s) => [
        s,
        {
          NODE_OPTIONS: process.env[`BENCH_${s.toUpperCase()}_NODE_OPTIONS`],
          // Where bench/cpu-profile.cjs writes, when that is what the options --require.
          ...(process.env.BENCH_CPU_PROF_DIR ? { BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF_DIR } : {}),
        },
      ]),
    ),
  });
  const direct = process.env.BENCH_DIRECT === '1';
  const headers = direct
    ? (identity) => ({
        [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(
          system.secret,
          { identity, service: null, correlationId: null },
          Date.now(),
          3600,
        ),
      })
    : (identity) =>
        identity.practitioner
          ? { 'x-subject': identity.practitioner.subject }
          : { 'x-medewerker': identity.caseHandler.medewerker, 'x-rollen': identity.caseHandler.rollen.join(',') };
  const owner = (s) => ({ practitioner: { subject: s, role: 'drafter' }, caseHandler: null, adminSeam: false });
  const beoordelaar = {
    practitioner: null,
    caseHandler: { medewerker: 'bench', rollen: ['beoordelaar'] },
    adminSeam: false,
  };
  try {
    // The audit service too: it takes the audit events and processing records a request writes, as it does in
    // production (issue 26: the consumers that react to a submit count).
    for (const s of ['reference', 'documents', 'audit', 'applications', 'gateway']) await system.start(s);
    const url = new URL(infra.postgresUrl);
    url.pathname = `/${PREFIX}_applications`;
    const database = createDatabase(url.toString(), logger);
    await seed(database.db);
    for (const [label, q] of [
      [
        'own list',
        sql`EXPLAIN ANALYZE SELECT * FROM applications WHERE owner = 'b00000042' ORDER BY created_at DESC, id DESC
          LIMIT 1001`,
      ],
      [
        'werkvoorraad',
        sql`EXPLAIN ANALYZE SELECT * FROM applications WHERE status_tag = 'Ingediend' ORDER BY submitted_at, id
          LIMIT 101`,
      ],
    ]) {
      const { rows } = await q.execute(database.db);
      console.log(`\nEXPLAIN ANALYZE ${label}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
    // Fresh drafts for the submit run, one Concept intake each (uren above the scholing threshold).
    await sql`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at)
      SELECT gen_random_uuid(), 's' || lpad(g::text, 8, '0'), 'intake', 'Concept', '[]'::jsonb, now(), now()
      FROM generate_series(1, ${SUBMIT_WARM_REQUESTS + RATE * SECONDS + 1000}) g`.execute(database.db);
    const drafts = (await sql`SELECT id, owner FROM applications WHERE owner LIKE 's%'`.execute(database.db)).rows;
    await database.close();

    const base = direct ? system.url('applications') : system.url('gateway');
    console.log(
      `\ntarget ${base} (${direct ? 'service directly' : 'through the gateway'}), ` +
        `${RATE} req/s for ${SECONDS} s per route, evenly spaced (open loop)\n`,
    );
    console.log(
      `| route | p50 ms | p99 ms | requests | errors | ${PROCESSES.map((p) => `${p} µs/req`).join(' | ')} |\n` +
        `|---|---|---|---|---|${PROCESSES.map(() => '---|').join('')}`,
    );
    await run(system, 'GET /health', `${base}/health`);
    await run(system, 'GET /api/v1/applications (owner)', `${base}/api/v1/applications`, () => ({
      headers: headers(owner('b00000042')),
    }));
    await run(system, 'GET /api/v1/werkvoorraad?limit=100', `${base}/api/v1/werkvoorraad?limit=100`, () => ({
      headers: headers(beoordelaar),
    }));
    await run(
      system,
      'POST /api/v1/applications/:id/submit',
      base,
      (n) => {
        const d = drafts[n % drafts.length];
        return {
          method: 'POST',
          path: `/api/v1/applications/${d.id}/submit`,
          headers: { ...headers(owner(d.owner)), 'content-type': 'application/json' },
          body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }),
        };
      },
      SUBMIT_WARM_REQUESTS / RATE,
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
