import { execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@register/authz';
import { freePort } from '@register/embedded';
import { SERVICES, System, resolveInfrastructure, type Service } from '@register/launcher';

// npm run bench -w @register/gateway: throughput and latency of one stamdata read, directly on the reference
// service and through the gateway, against a bare node:http server as the machine's ceiling. One run, ratios.
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const DURATION = Number(process.env['BENCH_SECONDS'] ?? 10);
const PATH = '/api/v1/stamdata/opleidingen?peildatum=2025-01-01';

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, pipelining: 1 });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

function establishedTo(port: number): number {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} )`]).toString();
  return out.split('\n').filter((l) => l.trim() !== '').length;
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<Service, number>;
  const system = new System({ root, infra, ports, databasePrefix: 'bench', logDir: path.join(root, '.data', 'bench', 'logs'), logLevel: 'warn' });
  const ceiling = http.createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((r) => ceiling.listen(0, '127.0.0.1', r));
  try {
    await system.start('reference');
    await system.start('gateway');
    const identity = { practitioner: { subject: '900000003', role: 'admin' as const }, caseHandler: null, adminSeam: false };
    const signed = signInternalIdentity(system.secret, { identity, service: null, correlationId: null }, Date.now(), 3600);
    const user = { 'X-Subject': '900000003', 'X-Role': 'admin' };
    const results: Figures[] = [];
    results.push(await load('node:http GET /health (ceiling)', `http://127.0.0.1:${(ceiling.address() as { port: number }).port}/health`, {}));
    results.push(await load('reference direct', system.url('reference') + PATH, { [INTERNAL_IDENTITY_HEADER]: signed }));
    let peakConnections = 0;
    const sampler = setInterval(() => {
      peakConnections = Math.max(peakConnections, establishedTo(ports.reference));
    }, 250);
    results.push(await load('through gateway', system.url('gateway') + PATH, user));
    clearInterval(sampler);

    const [cap, direct, gw] = results as [Figures, Figures, Figures];
    console.log(`\nGET ${PATH}, ${CONNECTIONS} connections, ${DURATION} s each, same identity\n`);
    console.log('| run | req/s | p50 ms | p99 ms | errors | non-2xx |\n|---|---|---|---|---|---|');
    for (const f of results) console.log(`| ${f.name} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.non2xx} |`);
    console.log(`\ngateway / direct throughput: ${(gw.rps / direct.rps).toFixed(2)} (target >= 0.60)`);
    console.log(`direct / ceiling throughput: ${(direct.rps / cap.rps).toFixed(2)}`);
    console.log(`peak connections gateway -> reference: ${peakConnections} (bounded by UPSTREAM_MAX_SOCKETS=64; ${CONNECTIONS} client connections)`);
    if (gw.rps / direct.rps < 0.6 || gw.errors + gw.non2xx > 0) process.exitCode = 1;
  } finally {
    ceiling.close();
    await system.stopAll();
    await infra.stop();
  }
}

void main();
