/**
 * npm run bench -w @register/documents: through the gateway, 10 concurrent uploads of 20 MiB PDFs (each with
 * an Idempotency-Key, as the portal sends): MiB/s, and the peak RSS of the gateway and of the documents
 * service against their idle RSS. Infrastructure from DATABASE_URL / NATS_URL / S3_ENDPOINT, else embedded.
 * BENCH_FILE_MIB, BENCH_CONCURRENCY, BENCH_NO_KEY and BENCH_NODE_OPTIONS (gateway) vary the run.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { SERVICES, System, resolveInfrastructure, type Service } from '@register/launcher';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import { benchEvents } from '@register/testkit';

const MIB = 1024 * 1024;
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 10);
const FILE_MIB = Number(process.env['BENCH_FILE_MIB'] ?? 20);

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function waitReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      (await fetch(`${url}/health/ready`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** Streams one multipart upload from a file, so the client never holds the 20 MiB either. */
function uploadFile(baseUrl: string, headers: Record<string, string>, file: string): Promise<number> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="wizardId"\r\n\r\nintake\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="categoryId"\r\n\r\noverig\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
      `filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/v1/uploads`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(length),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(head);
    const body = createReadStream(file);
    body.pipe(req, { end: false });
    body.on('end', () => req.end(tail));
  });
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const work = mkdtempSync(path.join(os.tmpdir(), 'documents-bench-'));
  const infra = await resolveInfrastructure(process.env, path.join(root, '.data', 'bench'));
  const events = benchEvents('uploadbench');
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const system = new System({
    root,
    infra,
    settings: { ...process.env, ...events.env },
    ports,
    databasePrefix: `bench${Date.now()}`,
    logDir: path.join(work, 'logs'),
    logLevel: 'warn',
    extraEnv: process.env['BENCH_NODE_OPTIONS'] ? { gateway: { NODE_OPTIONS: process.env['BENCH_NODE_OPTIONS'] } } : {},
  });
  try {
    const pdfFile = path.join(work, 'bench.pdf');
    const header = Buffer.from('%PDF-1.4\n%bench\n');
    writeFileSync(pdfFile, Buffer.concat([header, randomBytes(FILE_MIB * MIB - header.length)]));
    for (const s of ['reference', 'documents', 'gateway'] as const) await system.start(s);
    const baseUrl = system.url('gateway');
    await waitReady(system.url('documents'));
    // Warm-up: one small upload loads the code paths, so "idle" is a process that has served an upload.
    const warm = path.join(work, 'warm.pdf');
    writeFileSync(warm, Buffer.concat([header, randomBytes(MIB)]));
    await uploadFile(baseUrl, { 'x-subject': '900000199' }, warm);
    await new Promise((r) => setTimeout(r, 1000));
    const pids = { gateway: system.pid('gateway') ?? 0, documents: system.pid('documents') ?? 0 };
    const idle = { gateway: rssOf(pids.gateway), documents: rssOf(pids.documents) };
    const peak = { ...idle };
    const sampler = setInterval(() => {
      peak.gateway = Math.max(peak.gateway, rssOf(pids.gateway));
      peak.documents = Math.max(peak.documents, rssOf(pids.documents));
    }, 20);
    // As the portal does: one practitioner per upload, an Idempotency-Key on every write.
    const headers = (i: number): Record<string, string> => ({
      'x-subject': `9000001${String(i).padStart(2, '0')}`,
      ...(process.env['BENCH_NO_KEY'] ? {} : { 'idempotency-key': `bench-${Date.now()}-${i}` }),
    });
    const started = process.hrtime.bigint();
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => uploadFile(baseUrl, headers(i), pdfFile)),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);

    const mib = (n: number) => (n / MIB).toFixed(1);
    const ok = statuses.filter((s) => s === 201).length;
    const growth = { gateway: peak.gateway - idle.gateway, documents: peak.documents - idle.documents };
    process.stdout.write(
      [
        `target            gateway ${baseUrl} -> documents -> S3 ${infra.s3.endpoint}` +
          `${infra.embedded.some((e) => e.startsWith('S3')) ? ' (embedded s3rver)' : ''}`,
        `uploads           ${CONCURRENCY} x ${FILE_MIB} MiB, ` +
          `${ok} answered 201 (statuses ${[...new Set(statuses)].join(',')})`,
        `elapsed           ${seconds.toFixed(2)} s`,
        `throughput        ${((CONCURRENCY * FILE_MIB) / seconds).toFixed(1)} MiB/s`,
        `gateway RSS       idle ${mib(idle.gateway)} MiB, peak ${mib(peak.gateway)}` +
          ` MiB, growth ${mib(growth.gateway)} MiB (target <= 32 MiB)`,
        `documents RSS     idle ${mib(idle.documents)} MiB, peak ${mib(peak.documents)}` +
          ` MiB, growth ${mib(growth.documents)} MiB (target <= 128 MiB)`,
        '',
      ].join('\n'),
    );
    if (ok !== CONCURRENCY || growth.gateway > 32 * MIB || growth.documents > 128 * MIB) process.exitCode = 1;
  } finally {
    await system.stopAll();
    if (infra.natsUrl !== IN_PROCESS_EVENTS_URL) await events.remove(infra.natsUrl);
    await infra.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
