import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@register/authz';
import { freePort } from '@register/embedded';
import {
  SERVICES,
  System,
  dropSystemDatabases,
  resolveInfrastructure,
  type Service,
  type SystemOptions,
} from '@register/launcher';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';
import { wrk } from './wrk';

// npm run bench -w @register/gateway: what the gateway's hop costs. One stamdata read, with wrk (Debian's, one
// thread) as the load: straight to the reference service (signed identity), through nginx (a fixed signed
// identity), through a bare Node pipe (node-pipe.ts: node:http server to node:http client), through the same pipe
// with undici's client (undici-pipe.ts, the client of the gateway's core, ADR 0276), through http-proxy-middleware
// on bare node:http (bare-proxy.ts), and through the gateway; alternated, each row its throughput, its share of
// direct and the CPU per request of the hop's process and of the service, from /proc.
// Then the gateway with IDENTITY_PROVIDER=oidc (a bearer token, keys cached) against the header stand-in, and
// gateway and reference with tracing on (OTLP/HTTP to a local collector stand-in) against off, alternated.
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const DURATION = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 4);
/**
 * Load before measuring, per contender and comparison. V8 keeps optimising the request path for a minute of load:
 * after 3 s a gateway's next run still saw 300 functions optimised and cost 695 µs of CPU per request against 505
 * once warm (--trace-opt, CPU time from /proc), which made every contender's first round its slowest; a gateway
 * and reference pair still got cheaper from 30 to 60 s of load (739, 699, 693 µs).
 */
const WARM_SECONDS = Number(process.env['BENCH_WARM_SECONDS'] ?? 30);
const PATH = '/api/v1/stamdata/opleidingen?peildatum=2025-01-01';

interface Figures {
  name: string;
  rps: number;
  /** CPU time (user + system, from /proc) per request of the hop's processes, µs; null for none. */
  hopCpuUs: number | null;
  /** The same of the service behind the hop. */
  serviceCpuUs: number | null;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Microseconds of CPU a process has used (Linux /proc; clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** What a contender's run is charged: the hop's processes and the service's, apart. */
interface Charged {
  hop: number[];
  service: number[];
}

/**
 * One run; the CPU its processes used per request. Throughput on this shared 2-core machine swings with whatever
 * else runs; the CPU a request costs moves much less.
 */
async function load(name: string, url: string, headers: Record<string, string>, pids: Charged): Promise<Figures> {
  const used = (list: number[]) => list.reduce((sum, pid) => sum + cpuMicros(pid), 0);
  const before = { hop: used(pids.hop), service: used(pids.service) };
  const r = await wrk(url, { connections: CONNECTIONS, seconds: DURATION, headers });
  const per = (list: number[], start: number) =>
    list.length > 0 && r.requests > 0 ? (used(list) - start) / r.requests : null;
  return {
    name,
    rps: r.rps,
    hopCpuUs: per(pids.hop, before.hop),
    serviceCpuUs: per(pids.service, before.service),
    p50: r.p50,
    p99: r.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** The connections process `pid` holds open to `port` (the yardsticks' idle keep-alive ones are not its). */
function establishedFrom(pid: number, port: number): number {
  const out = execFileSync('ss', ['-Htnp', 'state', 'established', `( dport = :${port} )`]).toString();
  return out.split('\n').filter((l) => l.includes(`pid=${pid},`)).length;
}

/** A local issuer for the oidc gateway: discovery and one RS256 key; with cached keys it is asked once. */
async function benchIssuer(): Promise<{
  url: string;
  token: (claims: Record<string, unknown>) => Promise<string>;
  close(): void;
}> {
  const { SignJWT, exportJWK, generateKeyPair } = await import('jose');
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
      .setIssuer(url)
      .setAudience('register-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  return { url, token, close: () => server.close() };
}

/** A Node yardstick (bare-proxy.ts, node-pipe.ts, undici-pipe.ts) in a process of its own, in front of `target`. */
async function yardstick(
  file: 'bare-proxy.js' | 'node-pipe.js' | 'undici-pipe.js',
  target: string,
  signed: string,
): Promise<{ url: string; pid: number | undefined; close(): void }> {
  const child = fork(path.join(__dirname, file), [target, signed], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(Number(m)));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, close: () => child.kill() };
}

/** Waits until something accepts connections on `port`. */
async function listening(port: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/**
 * nginx (Debian's) in front of the service, one process, keep-alive to the service, the signed identity fixed:
 * what an operator would put in front instead, the physical floor of a hop here.
 */
async function nginxInFront(
  target: string,
  signed: string,
): Promise<{ url: string; pid: number | undefined; close(): void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const conf = `daemon off;
master_process off;
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream service { server ${new URL(target).host}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header ${INTERNAL_IDENTITY_HEADER} "${signed}";
    }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: 'inherit',
  });
  await listening(port);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    close: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A collector stand-in: accepts OTLP/HTTP trace posts (counted), as a real collector would answer. */
async function benchCollector(): Promise<{ url: string; posts: () => number; close(): void }> {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const events = benchEvents('gatewaybench');
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  // Every system's database prefix, so that its databases go with the bench.
  const prefixes: string[] = [];
  const prefix = (name: string): string => {
    prefixes.push(name);
    return name;
  };
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: prefix('bench'),
    logDir: path.join(root, '.data', 'bench', 'logs'),
    logLevel: 'warn',
    // Diagnosis: the measured gateway's NODE_OPTIONS (--cpu-prof, a --require'd probe).
    ...(process.env['BENCH_GATEWAY_NODE_OPTIONS']
      ? { extraEnv: { gateway: { NODE_OPTIONS: process.env['BENCH_GATEWAY_NODE_OPTIONS'] } } }
      : {}),
  });
  const issuer = await benchIssuer();
  // Each comparison below is between processes with the same history: started together, idle until their
  // comparison, warmed alike right before it. The gateway and reference of the first comparison have served
  // minutes of load by the time the later ones run, and V8 keeps making a request path cheaper for a minute of
  // load (a plain gateway and reference pair: 923, 739, 699, 693 µs of CPU per request in four 15 s runs in a
  // row), so comparing a fresh oidc gateway or traced pair with them measured warm-up, not oidc or tracing.
  /** A system beside `system` (same infrastructure and secret) whose `fresh` services run as processes of their own. */
  const beside = async (name: string, fresh: Service[], extraEnv?: SystemOptions['extraEnv']) =>
    new System({
      root,
      infra,
      settings: { ...process.env, ...events.env },
      ports: {
        ...ports,
        ...Object.fromEntries(await Promise.all(fresh.map(async (s) => [s, await freePort()] as const))),
      },
      secret: system.secret,
      databasePrefix: prefix(`bench_${name}`),
      logDir: path.join(root, '.data', 'bench', `logs-${name}`),
      logLevel: 'warn',
      extraEnv,
    });
  // A gateway with the header stand-in, for the oidc comparison, in front of the same reference service, and one
  // the same in everything but its identity provider.
  const headers = await beside('headers', ['gateway']);
  const oidc = await beside('oidc', ['gateway'], {
    gateway: { IDENTITY_PROVIDER: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: 'register-api' },
  });
  // A gateway and reference pair without tracing, and one with tracing on: every request one trace across both,
  // exported.
  const untraced = await beside('untraced', ['gateway', 'reference']);
  const collector = await benchCollector();
  const tracedEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };
  const traced = await beside('traced', ['gateway', 'reference'], { gateway: tracedEnv, reference: tracedEnv });
  try {
    await system.start('reference');
    await untraced.start('reference');
    await traced.start('reference');
    await untraced.start('gateway');
    await traced.start('gateway');
    await system.start('gateway');
    await headers.start('gateway');
    await oidc.start('gateway');
    const identity = {
      practitioner: { subject: '900000003', role: 'admin' as const },
      caseHandler: null,
      adminSeam: false,
    };
    const signed = signInternalIdentity(
      system.secret,
      { identity, service: null, correlationId: null },
      Date.now(),
      3600,
    );
    const user = { 'X-Subject': '900000003', 'X-Role': 'admin' };
    const bare = await yardstick('bare-proxy.js', system.url('reference'), signed);
    const pipe = await yardstick('node-pipe.js', system.url('reference'), signed);
    const undiciPipe = await yardstick('undici-pipe.js', system.url('reference'), signed);
    const front = await nginxInFront(system.url('reference'), signed);
    const mean = (runs: Figures[], of: (f: Figures) => number | null = (f) => f.rps) =>
      runs.reduce((sum, f) => sum + (of(f) ?? 0), 0) / runs.length;
    const results: Figures[] = [];
    /**
     * Each comparison's contenders run in turn, ROUNDS times, and are compared by their means: the speed of this
     * machine drifts (seen here: 2× between runs a minute apart, and one slow run in three), so a drift hits
     * every contender alike and no ratio rests on one run.
     */
    const alternated = async (
      contenders: {
        name: string;
        url: string;
        headers: Record<string, string>;
        pids: Charged;
        during?: () => () => void;
      }[],
    ): Promise<Figures[][]> => {
      const runs = contenders.map((): Figures[] => []);
      // Each contender warmed right before its comparison: one left idle for minutes (the traced pair, while the
      // other comparisons ran) ran its first round 25–40 % slower than the header gateway every comparison kept busy,
      // also after a 15 s warm-up at the start.
      for (const c of contenders)
        await wrk(c.url + PATH, { connections: CONNECTIONS, seconds: WARM_SECONDS, headers: c.headers });
      for (let round = 0; round < ROUNDS; round++) {
        // In turn, and in reverse order every other round (A B, B A, …): each contender as often first as last.
        const order = [...contenders.entries()];
        if (round % 2 === 1) order.reverse();
        for (const [i, c] of order) {
          const stop = c.during?.();
          const f = await load(`${c.name}${round > 0 ? ` (round ${round + 1})` : ''}`, c.url + PATH, c.headers, c.pids);
          stop?.();
          runs[i]!.push(f);
          results.push(f);
        }
      }
      return runs;
    };
    let peakConnections = 0;
    const sampleConnections = () => {
      const sampler = setInterval(() => {
        peakConnections = Math.max(peakConnections, establishedFrom(system.pid('gateway')!, ports.reference));
      }, 250);
      return () => clearInterval(sampler);
    };
    const pids = (...candidates: Array<number | undefined>) =>
      candidates.filter((pid): pid is number => pid !== undefined);
    const reference = pids(system.pid('reference'));
    const signedHeader = { [INTERNAL_IDENTITY_HEADER]: signed };
    const hops = [
      {
        name: 'straight to the service (signed identity)',
        url: system.url('reference'),
        headers: signedHeader,
        pids: { hop: [], service: reference },
      },
      {
        name: 'nginx in front (fixed signed identity)',
        url: front.url,
        headers: {},
        pids: { hop: pids(front.pid), service: reference },
      },
      {
        name: 'a bare Node pipe (node:http server → node:http client, keep-alive agent)',
        url: pipe.url,
        headers: {},
        pids: { hop: pids(pipe.pid), service: reference },
      },
      {
        name: 'the same pipe with undici (node:http server → undici pool)',
        url: undiciPipe.url,
        headers: {},
        pids: { hop: pids(undiciPipe.pid), service: reference },
      },
      {
        name: 'http-proxy-middleware on bare node:http',
        url: bare.url,
        headers: {},
        pids: { hop: pids(bare.pid), service: reference },
      },
      {
        name: 'the gateway',
        url: system.url('gateway'),
        headers: user,
        pids: { hop: pids(system.pid('gateway')), service: reference },
        during: sampleConnections,
      },
    ];
    const hopRuns = await alternated(hops);
    bare.close();
    pipe.close();
    undiciPipe.close();
    front.close();
    const [directRuns, , pipeRuns, undiciRuns, , gatewayRuns] = hopRuns as [
      Figures[],
      Figures[],
      Figures[],
      Figures[],
      Figures[],
      Figures[],
    ];
    const gatewayRatio = mean(gatewayRuns) / mean(directRuns);
    const hopCpu = (runs: Figures[]) => mean(runs, (f) => f.hopCpuUs);

    // The header stand-in against OIDC (a bearer token, keys cached).
    const bearer = { Authorization: `Bearer ${await issuer.token({ bsn: '900000003', role: 'admin' })}` };
    const warm = await fetch(oidc.url('gateway') + PATH, { headers: bearer });
    if (warm.status !== 200) throw new Error(`the oidc gateway answered ${warm.status} to a valid token`);
    const [headerRuns, oidcRuns] = (await alternated([
      {
        name: 'through gateway, headers',
        url: headers.url('gateway'),
        headers: user,
        pids: { hop: pids(headers.pid('gateway')), service: reference },
      },
      {
        name: 'through gateway, oidc (keys cached)',
        url: oidc.url('gateway'),
        headers: bearer,
        pids: { hop: pids(oidc.pid('gateway')), service: reference },
      },
    ])) as [Figures[], Figures[]];
    const oidcRatio = mean(oidcRuns) / mean(headerRuns);

    // Tracing off against on (gateway and reference both traced, exporting to the collector stand-in).
    const [untracedRuns, tracedRuns] = (await alternated([
      {
        name: 'through gateway, tracing off',
        url: untraced.url('gateway'),
        headers: user,
        pids: { hop: pids(untraced.pid('gateway')), service: pids(untraced.pid('reference')) },
      },
      {
        name: 'through gateway, tracing on',
        url: traced.url('gateway'),
        headers: user,
        pids: { hop: pids(traced.pid('gateway')), service: pids(traced.pid('reference')) },
      },
    ])) as [Figures[], Figures[]];
    const tracingRatio = mean(tracedRuns) / mean(untracedRuns);

    const us = (value: number | null) => (value === null ? '' : value.toFixed(0));
    console.log(`\nGET ${PATH}, wrk: 1 thread, ${CONNECTIONS} connections, ${DURATION} s each, same identity\n`);
    console.log(
      '| run | req/s | hop CPU µs/req | service CPU µs/req | p50 ms | p99 ms | errors | non-2xx |\n' +
        '|---|---|---|---|---|---|---|---|',
    );
    for (const f of results)
      console.log(
        `| ${f.name} | ${f.rps.toFixed(0)} | ${us(f.hopCpuUs)} | ${us(f.serviceCpuUs)} | ${f.p50.toFixed(2)} ` +
          `| ${f.p99.toFixed(2)} | ${f.errors} | ${f.non2xx} |`,
      );
    console.log(`\nThe hop, means of ${ROUNDS} alternated runs each:\n`);
    console.log(
      '| path | req/s | share of direct | CPU the hop adds per request, µs | service CPU µs/req |\n' +
        '|---|---|---|---|---|',
    );
    for (const [i, c] of hops.entries()) {
      const runs = hopRuns[i]!;
      console.log(
        `| ${c.name} | ${mean(runs).toFixed(0)} | ${(mean(runs) / mean(directRuns)).toFixed(2)} ` +
          `| ${i === 0 ? '–' : hopCpu(runs).toFixed(0)} | ${mean(runs, (f) => f.serviceCpuUs).toFixed(0)} |`,
      );
    }
    const overPipe = hopCpu(gatewayRuns) - hopCpu(pipeRuns);
    console.log(
      `\ngateway / direct throughput: ${gatewayRatio.toFixed(2)} (target >= 0.60); the gateway's hop ` +
        `${overPipe.toFixed(0)} µs above the bare Node pipe's (target <= 30)`,
    );
    console.log(
      `the undici pipe's hop ${(hopCpu(pipeRuns) - hopCpu(undiciRuns)).toFixed(0)} µs below the node:http pipe's ` +
        `(the client of the gateway's proxy core since ADR 0276)`,
    );
    console.log(
      `peak connections gateway -> reference: ${peakConnections} (bounded ` +
        `by UPSTREAM_MAX_SOCKETS=64; ${CONNECTIONS} client connections)`,
    );
    const byCpu = (runs: Figures[], against: Figures[]) => {
      const total = (r: Figures[]) => hopCpu(r) + mean(r, (f) => f.serviceCpuUs);
      return (
        `CPU per request (gateway + service) ${total(runs).toFixed(0)} against ${total(against).toFixed(0)}` +
        ` µs: ${(total(against) / total(runs)).toFixed(2)}`
      );
    };
    console.log(
      `gateway oidc / headers throughput (means of ${ROUNDS} alternated runs each): ` +
        `${oidcRatio.toFixed(2)} (target >= 0.90); ${byCpu(oidcRuns, headerRuns)}`,
    );
    console.log(
      `gateway tracing on / off throughput (means of ${ROUNDS} alternated runs each): ` +
        `${tracingRatio.toFixed(2)} (target >= 0.90); ${byCpu(tracedRuns, untracedRuns)}` +
        `; the collector took ${collector.posts()} OTLP posts`,
    );
    const failed = (runs: Figures[]) => runs.some((f) => f.errors + f.non2xx > 0 || f.rps === 0);
    if (hopRuns.some(failed)) process.exitCode = 1;
    if (gatewayRatio < 0.6 || overPipe > 30) process.exitCode = 1;
    if (tracingRatio < 0.9 || collector.posts() === 0 || failed(tracedRuns)) process.exitCode = 1;
    if (oidcRatio < 0.9 || failed(oidcRuns)) process.exitCode = 1;
  } finally {
    issuer.close();
    await traced.stopAll();
    collector.close();
    await untraced.stopAll();
    await oidc.stopAll();
    await headers.stopAll();
    await system.stopAll();
    for (const name of prefixes) await dropSystemDatabases(infra.postgresUrl, name);
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    await infra.stop();
  }
}

void main();
