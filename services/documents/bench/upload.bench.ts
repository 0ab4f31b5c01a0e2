/**
 * 10 concurrent uploads of 20 MiB PDFs: MiB/s and the documents process's peak RSS against its idle RSS.
 * Without GATEWAY_URL it starts the documents service as a child process (so its RSS is its own) on
 * DATABASE_URL / NATS_URL / S3_ENDPOINT, or on embedded Postgres, nats-server and s3rver.
 * With GATEWAY_URL it uploads through the gateway (X-Subject headers); DOCUMENTS_PID names the process to sample.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, hasNatsServer, startEmbeddedPostgres, startNatsServer, startS3rver, type Running } from '@register/embedded';
import pg from 'pg';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@register/authz';

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
    if ((await fetch(`${url}/health/ready`).then((r) => r.status, () => 0)) === 200) return;
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
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/v1/uploads`, { method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) } });
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

/** The bench's own database on a shared server goes again when the run ends. */
async function dropDatabase(url: URL): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`).finally(() => client.end());
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'documents-bench-'));
  chmodSync(work, 0o755); // embedded Postgres runs as its own user when we are root
  const infra: Running[] = [];
  let child: ChildProcess | null = null;
  let benchDatabase: URL | null = null;
  try {
    const pdfFile = path.join(work, 'bench.pdf');
    const header = Buffer.from('%PDF-1.4\n%bench\n');
    writeFileSync(pdfFile, Buffer.concat([header, randomBytes(FILE_MIB * MIB - header.length)]));

    let baseUrl = process.env['GATEWAY_URL'];
    let headers: (i: number) => Record<string, string>;
    let pid = Number(process.env['DOCUMENTS_PID'] ?? 0);
    if (baseUrl) {
      headers = (i) => ({ 'x-subject': `9000001${String(i).padStart(2, '0')}` });
    } else {
      const secret = randomBytes(32).toString('hex');
      const pg = process.env['DATABASE_URL'] ? null : await startEmbeddedPostgres(path.join(work, 'pg'), await freePort());
      const nats = process.env['NATS_URL'] || !hasNatsServer() ? null : await startNatsServer(path.join(work, 'nats'), await freePort());
      const s3 = process.env['S3_ENDPOINT'] ? null : await startS3rver(path.join(work, 's3'), await freePort(), 'documents');
      for (const r of [pg, nats, s3]) if (r) infra.push(r);
      const dbUrl = new URL(process.env['DATABASE_URL'] ?? pg!.url);
      dbUrl.pathname = `/documents_bench_${Date.now()}`;
      if (process.env['DATABASE_URL']) benchDatabase = dbUrl;
      const port = await freePort();
      child = spawn(process.execPath, [path.join(__dirname, '..', 'src', 'main.js')], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: dbUrl.toString(),
          NATS_URL: process.env['NATS_URL'] ?? nats?.url ?? '',
          INTERNAL_IDENTITY_SECRET: secret,
          S3_ENDPOINT: process.env['S3_ENDPOINT'] ?? s3!.url,
          S3_ACCESS_KEY: process.env['S3_ACCESS_KEY'] ?? s3!.accessKey,
          S3_SECRET_KEY: process.env['S3_SECRET_KEY'] ?? s3!.secretKey,
          S3_BUCKET: `bench-${Date.now()}`,
          UPLOAD_TMP_DIR: path.join(work, 'spool'),
          LOG_LEVEL: 'warn',
        },
      });
      pid = child.pid ?? 0;
      baseUrl = `http://127.0.0.1:${port}`;
      headers = (i) => ({ [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(secret, { identity: { practitioner: { subject: `9000001${String(i).padStart(2, '0')}`, role: 'drafter' }, caseHandler: null, adminSeam: false }, service: null, correlationId: null }, Date.now(), 600) });
    }
    await waitReady(baseUrl);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = pid ? rssOf(pid) : 0;
    let peak = idle;
    const sampler = setInterval(() => pid && (peak = Math.max(peak, rssOf(pid))), 20);

    const started = process.hrtime.bigint();
    const statuses = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => uploadFile(baseUrl as string, headers(i), pdfFile)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);

    const mib = (n: number) => (n / MIB).toFixed(1);
    const ok = statuses.filter((s) => s === 201).length;
    process.stdout.write(
      [
        `target            ${process.env['GATEWAY_URL'] ? `gateway ${baseUrl}` : `documents (child process) ${baseUrl}`}`,
        `uploads           ${CONCURRENCY} x ${FILE_MIB} MiB, ${ok} answered 201 (statuses ${[...new Set(statuses)].join(',')})`,
        `elapsed           ${seconds.toFixed(2)} s`,
        `throughput        ${((CONCURRENCY * FILE_MIB) / seconds).toFixed(1)} MiB/s`,
        pid ? `documents RSS     idle ${mib(idle)} MiB, peak ${mib(peak)} MiB, growth ${mib(peak - idle)} MiB (target <= 128 MiB)` : 'documents RSS     not sampled (set DOCUMENTS_PID)',
        '',
      ].join('\n'),
    );
    if (ok !== CONCURRENCY) process.exitCode = 1;
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (benchDatabase) await dropDatabase(benchDatabase);
    for (const r of infra.reverse()) await r.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
