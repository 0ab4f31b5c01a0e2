// The case mirror's measurements (issue 10), each a run of the whole system (services and the ZGW simulator as
// processes), through the gateway:
//   node services/applications/bench/mirror.mjs outage      the simulator refuses connections for MIRROR_OUTAGE_S
//        (300) while MIRROR_APPS (1000) applications with one document each are submitted at MIRROR_RATE (20)/s;
//        afterwards every one must exist exactly once, complete, with no divergence flag left: time to converge.
//   node services/applications/bench/mirror.mjs crash       the applications process is killed (SIGKILL)
//        MIRROR_KILLS (20) times at random moments while MIRROR_APPS (200) applications are submitted and mirrored.
//   node services/applications/bench/mirror.mjs throughput  submit p50/p99 at BENCH_RATE (200)/s for BENCH_SECONDS
//        (20) with mirroring off and on, each after BENCH_WARM_SECONDS (5) unmeasured; then MIRROR_RATES (100; a
//        list: 100,25) submits/s with two documents each for MIRROR_SECONDS (20): the backlog of cases owed,
//        sampled every second through the load and the drain after it, and the CPU per case mirrored in the
//        drain (applications; the simulator, PostgreSQL and the documents service apart).
// The mirror runs with its production defaults (ZGW_TIMEOUT_MS 10 s, reconcile every 5 minutes) unless the
// scenario says otherwise. Needs `npm run build` first; DATABASE_URL / NATS_URL / S3_ENDPOINT as npm start.
import { randomUUID } from 'node:crypto';
import {
  bsn,
  cpuSampler,
  mirrorState,
  pool,
  prepareDraft,
  startMirrorSystem,
  submitUntilDone,
  verify,
} from './mirror-system.mjs';
import { steadyLoad } from '@register/steady-load';

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms) => (ms / 1000).toFixed(1);
const log = (...args) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);

/** Polls the mirror's table until nothing is owed and no flag is left (or the deadline); returns when it was. */
async function converge(db, deadlineMs, every = 2000) {
  let last = '';
  for (;;) {
    const s = await mirrorState(db);
    const line = `pending ${s.pending}, diverged ${s.diverged}, done ${s.done}, flagged ${s.flagged}`;
    if (line !== last) log(line);
    last = line;
    if (s.pending === 0 && s.diverged === 0 && s.flagged === 0) return { at: Date.now(), state: s };
    if (Date.now() > deadlineMs) return { at: null, state: s };
    await sleep(every);
  }
}

/**
 * The audit rows of an action written since `since`, counted through the audit API (newest first, paged by
 * Link); a fresh audit consumer also reads the older events still in the shared stream, hence the time.
 */
async function auditCount(gateway, action, since) {
  let next = `/api/v1/admin/audit?action=${action}&limit=1000`;
  let n = 0;
  while (next) {
    const res = await fetch(`${gateway}${next}`, { headers: { 'X-Subject': '900000003', 'X-Role': 'admin' } });
    n += (await res.json()).filter((row) => Date.parse(row.at) >= since).length;
    next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
  }
  return n;
}

async function prepare(gateway, count, documents, offset) {
  const t0 = Date.now();
  const drafts = new Array(count);
  await pool(count, 8, async (i) => {
    drafts[i] = await prepareDraft(gateway, bsn(offset + i), documents);
  });
  log(`prepared ${count} drafts with ${documents} document(s) each in ${seconds(Date.now() - t0)} s`);
  return drafts;
}

async function outage() {
  const apps = env('MIRROR_APPS', 1000);
  const rate = env('MIRROR_RATE', 20);
  const outageMs = env('MIRROR_OUTAGE_S', 300) * 1000;
  // MIRROR_RECONCILE_MS: the reconciler's interval (default: the production 5 minutes).
  const reconcile = process.env.MIRROR_RECONCILE_MS
    ? { ZGW_RECONCILE_INTERVAL_MS: process.env.MIRROR_RECONCILE_MS }
    : {};
  const run = await startMirrorSystem({ prefix: `mirout_${randomUUID().slice(0, 6)}`, applicationsEnv: reconcile });
  try {
    const drafts = await prepare(run.gateway, apps, 1, 0);
    log(`outage: the simulator refuses connections for ${seconds(outageMs)} s; ${apps} submits at ${rate}/s`);
    await run.sim.faults.refuseConnections(outageMs);
    const outageStart = Date.now();
    const referenties = new Array(apps);
    const pending = [];
    for (let i = 0; i < apps; i++) {
      const wait = outageStart + (i * 1000) / rate - Date.now();
      if (wait > 1) await sleep(wait);
      pending.push(submitUntilDone(run.gateway, drafts[i]).then((r) => (referenties[i] = r)));
    }
    await Promise.all(pending);
    log(
      `all ${apps} submitted in ${seconds(Date.now() - outageStart)}` +
        ` s (every submit answered 200 while the zaaksysteem was down)`,
    );
    await run.sim.faults.listening();
    const outageEnd = Date.now();
    log(`the simulator accepts connections again after ${seconds(outageEnd - outageStart)} s`);
    const done = await converge(run.db, outageEnd + 20 * 60_000, 1000);
    const result = await verify(run.sim, referenties, { documents: 1 });
    const [divergences, healed] = [
      await auditCount(run.gateway, 'zaaksysteem-divergentie', outageStart),
      await auditCount(run.gateway, 'zaaksysteem-hersteld', outageStart),
    ];
    console.log(
      JSON.stringify(
        {
          scenario: 'outage',
          apps,
          rate,
          outageS: outageMs / 1000,
          reconcileMs: reconcile.ZGW_RECONCILE_INTERVAL_MS ?? 300000,
          convergedAfterOutageS: done.at ? (done.at - outageEnd) / 1000 : null,
          convergedAfterFirstSubmitS: done.at ? (done.at - outageStart) / 1000 : null,
          final: done.state,
          ...result,
          auditRows: { divergentie: divergences, hersteld: healed },
        },
        null,
        1,
      ),
    );
  } finally {
    await run.stop();
  }
}

async function crash() {
  const apps = env('MIRROR_APPS', 200);
  const kills = env('MIRROR_KILLS', 20);
  // A shorter timeout makes a killed claim's lease (6 × timeout + 5 s) run out sooner; nothing else changes.
  const run = await startMirrorSystem({
    prefix: `mircrash_${randomUUID().slice(0, 6)}`,
    applicationsEnv: { ZGW_TIMEOUT_MS: '2000' },
  });
  try {
    const drafts = await prepare(run.gateway, apps, 1, 100_000);
    // Every ZGW call takes 100 ms, so that the kills land in the middle of cases.
    const slow = await run.sim.faults.add({ path: '*', mode: 'delay', delayMs: 100 });
    const t0 = Date.now();
    const referenties = new Array(apps);
    const submitting = pool(apps, 4, async (i) => {
      referenties[i] = await submitUntilDone(run.gateway, drafts[i]);
    });
    const moments = [];
    for (let k = 0; k < kills; k++) {
      await sleep(300 + Math.random() * 1700);
      const pid = run.system.pid('applications');
      const before = await mirrorState(run.db);
      process.kill(pid, 'SIGKILL');
      while (run.system.pid('applications') !== undefined) await sleep(20);
      moments.push({ atS: seconds(Date.now() - t0), done: before.done });
      await run.system.start('applications');
    }
    await submitting;
    log(`${kills} kills at ${moments.map((m) => `${m.atS}s (${m.done} done)`).join(', ')}`);
    await run.sim.faults.remove(slow.id);
    const done = await converge(run.db, Date.now() + 10 * 60_000);
    const result = await verify(run.sim, referenties, { documents: 1 });
    console.log(
      JSON.stringify(
        {
          scenario: 'crash',
          apps,
          kills,
          convergedS: done.at ? (done.at - t0) / 1000 : null,
          final: done.state,
          ...result,
        },
        null,
        1,
      ),
    );
  } finally {
    await run.stop();
  }
}

/** The latency runs start the simulator with this niceness; the keep-up runs do not (it competes at full priority). */
const SIM_NICE = 10;

/**
 * MIRROR_LATENCY_ENV (`ZGW_MIRROR_CONCURRENCY=4,…`): mirror settings of the applications service in the latency runs.
 */
const latencyEnv = () =>
  Object.fromEntries(
    (process.env.MIRROR_LATENCY_ENV ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=')),
  );

/** BENCH_WARM_SECONDS (5): the unmeasured submits at the measured rate before each latency run. */
const warmSecs = () => env('BENCH_WARM_SECONDS', 5);

/** Submit latency through the gateway at a steady rate, on drafts inserted by SQL (no documents). */
async function submitLatency(mirror, rate, secs) {
  // The simulator niced: its request validation stands in for a case system on other hardware (said in the output).
  const run = await startMirrorSystem({
    prefix: `mirtp${mirror ? 'on' : 'off'}_${randomUUID().slice(0, 6)}`,
    mirror,
    simNice: SIM_NICE,
    applicationsEnv: latencyEnv(),
  });
  try {
    await run.db.query(
      `INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at)
      SELECT gen_random_uuid(), 's' || lpad(g::text, 8, '0'), 'intake', 'Concept', '[]'::jsonb, now(), now()
      FROM generate_series(1, $1::int) g`,
      [rate * (secs + warmSecs()) + 200],
    );
    const drafts = (
      await run.db.query(
        `SELECT id, owner FROM applications WHERE status_tag = 'Concept' AND owner LIKE 's%' ORDER BY owner`,
      )
    ).rows;
    // A warm-up at the measured rate on the last drafts (connections, JIT, the simulator's first calls), not
    // measured: without it the p99 is the service's first second.
    await steadyLoad({
      url: run.gateway,
      rate,
      seconds: warmSecs(),
      request: (n) => submitRequest(drafts[drafts.length - 1 - n]),
    });
    if (mirror) await converge(run.db, Date.now() + 60_000, 500);
    // MIRROR_SIM_DELAY_MS: the simulator answers that late during the load (the mirror waits instead of working),
    // to tell the submit path's own cost from the mirror's and the simulator's CPU on a shared machine.
    const delay =
      mirror && process.env.MIRROR_SIM_DELAY_MS
        ? await run.sim.faults.add({ path: '*', mode: 'delay', delayMs: Number(process.env.MIRROR_SIM_DELAY_MS) })
        : null;
    const cpu = cpuSampler(processIds(run));
    const r = await steadyLoad({ url: run.gateway, rate, seconds: secs, request: (n) => submitRequest(drafts[n]) });
    const cpuDuringLoad = cpu.stop();
    if (delay) await run.sim.faults.remove(delay.id);
    const atLoadEnd = mirror ? await mirrorState(run.db) : null;
    const end = Date.now();
    const drained = mirror ? await converge(run.db, Date.now() + 5 * 60_000, 500) : null;
    return {
      mirror,
      ...(mirror ? { simulator: `niced ${SIM_NICE}: it stands in for a case system on other machines` } : {}),
      ...r,
      ...(atLoadEnd ? { mirrorPendingAtLoadEnd: atLoadEnd.pending } : {}),
      mirrorDrainedAfterLoadS: drained?.at ? (drained.at - end) / 1000 : null,
      cpuPctOfOneCoreDuringLoad: cpuDuringLoad,
    };
  } finally {
    await run.stop();
  }
}

/** The pids of the services and the simulator, by name (for the CPU sampler). */
const processIds = (run) => ({
  ...Object.fromEntries(
    ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'].map((s) => [s, run.system.pid(s)]),
  ),
  ...(run.sim ? { simulator: run.sim.pid } : {}),
});

const submitRequest = (d) => ({
  method: 'POST',
  path: `/api/v1/applications/${d.id}/submit`,
  headers: { 'x-subject': d.owner, 'x-role': 'drafter', 'content-type': 'application/json' },
  body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }),
});

/**
 * CPU milliseconds per case mirrored while nothing else ran (the drain after the load): the applications service,
 * and apart from it the simulator (the case system's share, elsewhere in production), PostgreSQL and the documents
 * service (the documents' content).
 */
function perCase(sampler, cases) {
  const per = (ms) => (cases > 0 ? Number((ms / cases).toFixed(2)) : null);
  return {
    cases,
    drainS: Number(sampler.seconds.toFixed(1)),
    applicationsMs: per(sampler.ms.applications),
    simulatorMs: per(sampler.ms.simulator ?? 0),
    postgresMs: per(sampler.ms.postgres),
    documentsMs: per(sampler.ms.documents),
  };
}

/** MIRROR_RATE submits/s with two documents each: the backlog (cases owed) sampled every second. */
async function keepUp(rate, secs, mirror = true) {
  const run = await startMirrorSystem({ prefix: `mirkeep_${randomUUID().slice(0, 6)}`, mirror });
  try {
    const drafts = await prepare(run.gateway, rate * secs, 2, 200_000);
    const samples = [];
    let phase = 'load';
    const cpu = cpuSampler(processIds(run));
    const t0 = Date.now();
    // The backlog every second, through the load and (mirroring on) the drain after it.
    const sampler = (async () => {
      while (phase !== 'over') {
        samples.push({ t: (Date.now() - t0) / 1000, ...(await mirrorState(run.db)) });
        await sleep(1000);
      }
    })();
    const r = await steadyLoad({
      url: run.gateway,
      rate,
      seconds: secs,
      request: (n) => ({
        method: 'POST',
        path: `/api/v1/applications/${drafts[n].id}/submit`,
        headers: { ...drafts[n].headers, 'content-type': 'application/json' },
        body: JSON.stringify(drafts[n].body),
      }),
    });
    const loadEnd = Date.now();
    const cpuDuringLoad = cpu.stop();
    const submit = { p50: r.p50, p99: r.p99, errors: r.errors, achievedRate: r.achievedRate };
    if (!mirror) {
      phase = 'over';
      await sampler;
      return { rate, seconds: secs, mirror, submit, cpuPctOfOneCoreDuringLoad: cpuDuringLoad };
    }
    phase = 'drain';
    const atLoadEnd = await mirrorState(run.db);
    const drainCpu = cpuSampler(processIds(run));
    const drained = await converge(run.db, Date.now() + 10 * 60_000, 500);
    const cpuDuringDrain = drainCpu.stop();
    phase = 'over';
    await sampler;
    const result = await verify(
      run.sim,
      (await run.db.query('SELECT referentie FROM case_mirrors')).rows.map((x) => x.referentie),
      { documents: 2 },
    );
    const backlog = samples.map((s) => `${s.t.toFixed(0)}s:${s.pending}`).join(' ');
    return {
      rate,
      seconds: secs,
      simulator: 'not niced: it competes with the services at full priority',
      submit,
      backlogPendingBySecond: backlog,
      pendingAtLoadEnd: atLoadEnd.pending,
      drainedAfterLoadS: drained.at ? (drained.at - loadEnd) / 1000 : null,
      perMirroredCase: perCase(drainCpu, drained.state.done - atLoadEnd.done),
      cpuPctOfOneCoreDuringLoad: cpuDuringLoad,
      cpuPctOfOneCoreDuringDrain: cpuDuringDrain,
      missing: result.missing,
      duplicates: result.duplicates,
    };
  } finally {
    await run.stop();
  }
}

async function throughput() {
  const rate = env('BENCH_RATE', 200);
  const secs = env('BENCH_SECONDS', 20);
  if (process.env.MIRROR_SKIP_LATENCY !== '1') {
    const off = await submitLatency(false, rate, secs);
    const on = await submitLatency(true, rate, secs);
    console.log(
      JSON.stringify(
        {
          scenario: 'submit latency',
          rate,
          seconds: secs,
          applicationsEnv: latencyEnv(),
          off,
          on,
          p99Change: `${(((on.p99 - off.p99) / off.p99) * 100).toFixed(1)} %`,
        },
        null,
        1,
      ),
    );
  }
  if (process.env.MIRROR_SKIP_KEEPUP === '1') return;
  // MIRROR_KEEPUP_OFF=1: the same submits with mirroring off first, for what the submits alone cost this machine.
  if (process.env.MIRROR_KEEPUP_OFF === '1') {
    const alone = await keepUp(
      Number(String(process.env.MIRROR_RATES ?? '100').split(',')[0]),
      env('MIRROR_SECONDS', 20),
      false,
    );
    console.log(JSON.stringify({ scenario: 'the keep-up submits with mirroring off', ...alone }, null, 1));
  }
  for (const keepRate of String(process.env.MIRROR_RATES ?? '100')
    .split(',')
    .map(Number)) {
    const keep = await keepUp(keepRate, env('MIRROR_SECONDS', 20));
    console.log(JSON.stringify({ scenario: 'mirror keeps up', ...keep }, null, 1));
  }
}

const scenarios = { outage, crash, throughput };
const chosen = scenarios[process.argv[2]];
if (!chosen) {
  console.error(`usage: node services/applications/bench/mirror.mjs ${Object.keys(scenarios).join('|')}`);
  process.exitCode = 2;
} else {
  chosen().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
