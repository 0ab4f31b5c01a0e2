// The whole system as processes (tools/launcher's System) and the ZGW simulator as a process of its own (as
// Open Zaak is elsewhere: its request validation must not eat the load generator's CPU), for the mirror's
// fault and load measurements (mirror.mjs). Infrastructure: DATABASE_URL / NATS_URL / S3_ENDPOINT,
// else the embedded defaults (the S3 endpoint on a free port).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, resolveInfrastructure, zgwSettingsOf } from '@register/launcher';
import { SEED_UUIDS, SIMULATOR_RSIN } from '@register/zgw-sim';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
export const ZGW_SECRET = 'mirror-bench-secret-0123456789abcdef0123';
export const ZGW_CLIENT_ID = 'register';

/** The n-th of a series of distinct 9-digit subjects that pass the eleven-test (so the initiator carries inpBsn). */
export function bsn(n) {
  // Even prefixes for n; when its check digit would be 10, the odd prefix after it (its sum is 2 more).
  for (const prefix of [10000000 + 2 * n, 10000001 + 2 * n]) {
    const check =
      String(prefix)
        .split('')
        .reduce((t, d, i) => t + Number(d) * (9 - i), 0) % 11;
    if (check <= 9) return `${prefix}${check}`;
  }
  throw new Error('unreachable');
}

/**
 * Starts the simulator (unless `mirror` is false) and the six services; `applicationsEnv` is added to the
 * applications service's environment. Returns the system, the simulator, the gateway URL, a pool on the
 * applications database and `stop()`.
 */
export async function startMirrorSystem({ prefix, mirror = true, applicationsEnv = {}, simNice = 0 }) {
  if (!process.env.S3_ENDPOINT && !process.env.EMBEDDED_S3_PORT)
    process.env.EMBEDDED_S3_PORT = String(await freePort());
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench-mirror'));
  const events = benchEvents(prefix);
  await dropSystemDatabases(infra.postgresUrl, prefix);
  const sim = mirror ? await startSimProcess(simNice) : null;
  const zgw = sim ? zgwSettingsOf(sim, { clientId: ZGW_CLIENT_ID, secret: ZGW_SECRET }) : {};
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()])));
  const system = new System({
    root,
    infra: { ...infra, zgw },
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: prefix,
    logDir: path.join(root, '.data', 'bench-mirror', 'logs', prefix),
    logLevel: 'warn',
    extraEnv: withNodeOptions({
      applications: applicationsEnv,
      audit: { AUDIT_CONSUMER: `audit_${prefix}` },
      documents: { APPLICATION_EVENTS_CONSUMER: `documents_${prefix}` },
    }),
  });
  try {
    await system.startAll();
  } catch (err) {
    // Nothing of a failed start may outlive it: the services that did start, the simulator, the databases.
    await system.stopAll();
    await sim?.close();
    await dropSystemDatabases(infra.postgresUrl, prefix);
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    await infra.stop();
    throw err;
  }
  const url = new URL(infra.postgresUrl);
  url.pathname = `/${prefix}_applications`;
  const db = new pg.Pool({ connectionString: url.toString(), max: 3 });
  return {
    system,
    sim,
    db,
    gateway: system.url('gateway'),
    async stop() {
      await db.end();
      await system.stopAll();
      await sim?.close();
      await dropSystemDatabases(infra.postgresUrl, prefix);
      if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
      await infra.stop();
    },
  };
}

/**
 * BENCH_NODE_OPTIONS (e.g. a --require preload) is every service's and the simulator's NODE_OPTIONS;
 * BENCH_CPU_PROF_DIR profiles each of them into that folder (cpu-profile.cjs: this Node refuses --cpu-prof there).
 */
function benchNodeEnv() {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  const options = [
    process.env.BENCH_NODE_OPTIONS,
    dir ? `--require ${path.join(import.meta.dirname, 'cpu-profile.cjs')}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  return { ...(options ? { NODE_OPTIONS: options } : {}), ...(dir ? { BENCH_CPU_PROF_DIR: dir } : {}) };
}

function withNodeOptions(extraEnv) {
  const env = benchNodeEnv();
  if (Object.keys(env).length === 0) return extraEnv;
  return Object.fromEntries(SERVICES.map((s) => [s, { ...extraEnv[s], ...env }]));
}

/** Runs `work` over 0..n-1, `limit` at a time. */
export async function pool(n, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** A practitioner's intake draft with `documents` uploaded digital documents, through the gateway: the submit body. */
export async function prepareDraft(gateway, subject, documents) {
  const me = { 'X-Subject': subject, 'X-Role': 'drafter' };
  const created = await fetch(`${gateway}/api/v1/applications`, {
    method: 'POST',
    headers: { ...me, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'intake' }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { id } = await created.json();
  const refs = [];
  for (let i = 0; i < documents; i++) {
    const form = new FormData();
    form.set('wizardId', 'intake');
    form.set('categoryId', i === 0 ? 'diploma' : 'overig');
    form.set('localId', `${id}-${i}`);
    form.set(
      'file',
      new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(2000)}\n%%EOF\n`)], { type: 'application/pdf' }),
      `bijlage-${i + 1}.pdf`,
    );
    const up = await fetch(`${gateway}/api/v1/uploads`, { method: 'POST', headers: me, body: form });
    if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
    refs.push({
      categoryId: i === 0 ? 'diploma' : 'overig',
      channel: 'digitaal',
      documentId: (await up.json()).documentId,
    });
  }
  const body =
    documents > 0
      ? { diplomaHerkomst: 'handmatig', uren: 3000, documents: refs }
      : { diplomaHerkomst: 'digitaal', uren: 3000 };
  return { id, subject, headers: me, body };
}

/**
 * Submits a draft through the gateway until it is submitted: a refused or cut connection, a 502 or a 503 is
 * tried again; a 409 means an earlier try committed (its answer was lost), so the referentie is read back.
 */
export async function submitUntilDone(gateway, draft) {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const res = await fetch(`${gateway}/api/v1/applications/${draft.id}/submit`, {
        method: 'POST',
        headers: { ...draft.headers, 'content-type': 'application/json' },
        body: JSON.stringify(draft.body),
      });
      if (res.status === 200) return (await res.json()).referentie;
      if (res.status === 409) {
        const detail = await fetch(`${gateway}/api/v1/applications/${draft.id}`, { headers: draft.headers });
        if (detail.status === 200) return (await detail.json()).status.referentie;
      } else if (res.status !== 502 && res.status !== 503) {
        throw new Error(`submit answered ${res.status}: ${await res.text()}`);
      } else await res.arrayBuffer();
    } catch (err) {
      if (String(err).includes('submit answered')) throw err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`submit of ${draft.id} did not succeed`);
}

/** The mirror's table by state (pending, diverged, done) and the applications still flagged. */
export async function mirrorState(db) {
  const { rows } = await db.query(`SELECT
      count(*) FILTER (WHERE state = 'pending')::int AS pending,
      count(*) FILTER (WHERE state = 'diverged')::int AS diverged,
      count(*) FILTER (WHERE state = 'done')::int AS done,
      (SELECT count(*)::int FROM applications WHERE reden = 'zaaksysteem-divergentie') AS flagged
    FROM case_mirrors`);
  return rows[0];
}

/**
 * Every referentie exists as exactly one zaak with one status per owed status, one initiator and one document
 * with its relation per digital document (from the simulator's state); what it ever created, by kind.
 */
export async function verify(sim, referenties, { documents, statussen = 1 }) {
  const state = await sim.snapshot();
  const zaken = new Map();
  for (const v of state.zaken) zaken.set(v.zaak.identificatie, [...(zaken.get(v.zaak.identificatie) ?? []), v]);
  const docs = new Map();
  for (const d of state.enkelvoudiginformatieobjecten) {
    const id = String(d.identificatie);
    const ref = id.slice(0, id.lastIndexOf('-D'));
    docs.set(ref, (docs.get(ref) ?? 0) + 1);
  }
  const problems = [];
  let missing = 0;
  let duplicates = 0;
  for (const ref of referenties) {
    const found = zaken.get(ref) ?? [];
    if (found.length === 0) {
      missing += 1;
      problems.push(`${ref}: no zaak`);
      continue;
    }
    duplicates += found.length - 1;
    const [v] = found;
    const counts = [v.statussen.length, v.rollen.length, v.zaakinformatieobjecten.length, docs.get(ref) ?? 0];
    const want = [statussen, 1, documents, documents];
    counts.forEach((c, i) => {
      if (c > want[i]) duplicates += c - want[i];
      if (c < want[i]) missing += want[i] - c;
    });
    if (counts.some((c, i) => c !== want[i])) problems.push(`${ref}: statussen/rollen/zio/eio ${counts.join('/')}`);
  }
  return { missing, duplicates, problems: problems.slice(0, 10), created: state.counters.created };
}

/**
 * The simulator as a process (`tools/zgw-sim/dist/src/main.js`), driven through its /_sim endpoints. `nice`
 * above 0 lowers its priority: it stands in for a case system on other hardware.
 */
export async function startSimProcess(nice = 0) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const script = [process.execPath, path.join(root, 'tools', 'zgw-sim', 'dist', 'src', 'main.js')];
  const [command, ...args] = nice > 0 ? ['nice', '-n', String(nice), ...script] : script;
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH,
      ZGW_SECRET,
      ZGW_CLIENT_ID,
      ZGW_SIM_PORT: String(port),
      LOG_LEVEL: 'error',
      ...benchNodeEnv(),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const up = async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the simulator exited with ${child.exitCode}`);
      if (
        await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await up();
  const admin = async (method, url, body) => {
    const res = await fetch(`${base}/_sim${url}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`/_sim${url} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const catalogi = `${base}/catalogi/api/v1`;
  return {
    pid: child.pid,
    url: base,
    zakenUrl: `${base}/zaken/api/v1`,
    documentenUrl: `${base}/documenten/api/v1`,
    catalogiUrl: catalogi,
    zaaktypeUrl: `${catalogi}/zaaktypen/${SEED_UUIDS.zaaktype}`,
    rsin: SIMULATOR_RSIN,
    faults: {
      add: (spec) => admin('POST', '/faults', spec),
      remove: (id) => admin('DELETE', `/faults/${id}`),
      // Resolves once the listener closed (the answer comes first, then the port refuses).
      refuseConnections: async (forMs) => {
        await admin('POST', '/refuse-connections', { forMs });
        while (
          await fetch(`${base}/health`).then(
            () => true,
            () => false,
          )
        )
          await new Promise((r) => setTimeout(r, 10));
      },
      listening: up,
    },
    snapshot: () => admin('GET', '/state'),
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    },
  };
}

/**
 * CPU use per process while a phase runs (Linux /proc): `pids` maps a name to a pid; `stop()` gives each one's
 * share of one core in % over the phase, and the whole machine's busy share of all its cores. After `stop()`,
 * `ms` holds the CPU milliseconds themselves (each named process, and `postgres`: every PostgreSQL process) and
 * `seconds` the phase's length, for figures per unit of work.
 */
export function cpuSampler(pids) {
  const cores = availableParallelism();
  const ticks = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  };
  const machine = () => {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return {
      busy: values[0] + values[1] + values[2] + values[5] + values[6] + values[7],
      total: values.reduce((a, b) => a + b, 0),
    };
  };
  // Every other process too (PostgreSQL, NATS, this bench with its S3 endpoint, anything else running), by command
  // line.
  const everyone = () => {
    const out = new Map();
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      const t = ticks(pid);
      if (t === null) continue;
      let name;
      try {
        name = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 60) || pid;
      } catch {
        continue;
      }
      out.set(pid, { name, t });
    }
    return out;
  };
  const t0 = performance.now();
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, ticks(pid)]));
  const all0 = everyone();
  // Looked at twice a second, so processes that start and end within the phase (another agent's build) count too.
  const seen = new Map(all0);
  const look = setInterval(() => {
    for (const [pid, entry] of everyone()) seen.set(pid, entry);
  }, 500);
  const m0 = machine();
  const sampler = {
    ms: null,
    seconds: null,
    stop() {
      const secs = (performance.now() - t0) / 1000;
      const m1 = machine();
      const out = {};
      const ms = {};
      for (const [name, pid] of Object.entries(pids)) {
        const [a, b] = [before[name], ticks(pid)];
        if (a !== null && b !== null) {
          out[name] = Math.round(((b - a) / 100 / secs) * 100);
          ms[name] = (b - a) * 10;
        }
      }
      out.machineBusyPct = Math.round(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100);
      clearInterval(look);
      for (const [pid, entry] of everyone()) seen.set(pid, entry);
      const ours = new Set(Object.values(pids).map(String));
      const others = new Map();
      let accounted = Object.entries(out)
        .filter(([name]) => name !== 'machineBusyPct')
        .reduce((a, [, pct]) => a + pct, 0);
      ms.postgres = 0;
      for (const [pid, { name, t }] of seen) {
        if (ours.has(pid)) continue;
        const used = t - (all0.get(pid)?.t ?? 0);
        if (used > 0) others.set(name, (others.get(name) ?? 0) + used);
        if (used > 0 && name.startsWith('postgres')) ms.postgres += used * 10;
      }
      const pct = (used) => Math.round((used / 100 / secs) * 100);
      for (const used of others.values()) accounted += pct(used);
      out.others = Object.fromEntries(
        [...others]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([name, used]) => [name, pct(used)]),
      );
      // Busy time no process above accounts for (processes that lived less than half a second, the kernel).
      out.unaccountedPctOfOneCore = Math.max(0, out.machineBusyPct * cores - accounted);
      // Ticks of 10 ms.
      sampler.ms = ms;
      sampler.seconds = secs;
      return out;
    },
  };
  return sampler;
}
