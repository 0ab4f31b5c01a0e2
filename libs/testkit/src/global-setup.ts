import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort, hasNatsServer, startEmbeddedPostgres, startNatsServer, startS3rver } from '@register/embedded';
import { deleteStreams } from './system-events';

const started: Array<() => Promise<unknown>> = [];
(globalThis as { __registerInfra?: typeof started }).__registerInfra = started;

async function dockerAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/**
 * One resolution order for every piece of infrastructure: an explicit URL from the environment, else a
 * container where Docker runs, else the embedded default. The result goes into TEST_* variables that
 * the jest workers inherit.
 */
export default async function globalSetup(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'register-test-'));
  // Everything a test puts in the temp directory (its processes' too: they inherit TMPDIR) lands in this run's
  // directory, which the teardown removes; reachable by the embedded cluster's postgres user when run as root.
  chmodSync(tmp, 0o755);
  process.env['TMPDIR'] = tmp;
  // Services the tests start (also through the launcher) serve no metrics unless a test asks: parallel
  // systems would contend for the default ports.
  process.env['METRICS_PORT'] ??= 'off';
  // Pact (ADR 0235) reports each run to its makers unless told not to; tests reach nothing outside this machine.
  process.env['PACT_DO_NOT_TRACK'] = 'true';
  // Stopped in reverse order, so this goes last: the run's temporary directory (cluster, NATS store, S3 data).
  started.push(() => Promise.resolve(rmSync(tmp, { recursive: true, force: true })));
  const docker =
    process.env['DATABASE_URL'] && process.env['NATS_URL'] && process.env['S3_ENDPOINT']
      ? false
      : await dockerAvailable();

  await startPostgres(tmp, docker);
  await startNats(tmp, docker);

  // A stream and subject prefix of this run's own: parallel and earlier runs never see each other's events,
  // and the teardown deletes the stream, so a persistent NATS keeps nothing of a test run.
  const run = randomBytes(4).toString('hex');
  process.env['TEST_EVENTS_STREAM'] = process.env['EVENTS_STREAM'] = `TEST_${run}`;
  process.env['TEST_EVENTS_SUBJECT_PREFIX'] = process.env['EVENTS_SUBJECT_PREFIX'] = `t${run}.`;
  // With it go the streams of the systems the tests started (`TEST_<run>_<system>`) that a failed test left.
  started.push(() => deleteStreams(process.env['TEST_NATS_URL']!, (name) => name.startsWith(`TEST_${run}`)));

  await startS3(tmp, docker);
}

/** PostgreSQL for TEST_PG_URL: DATABASE_URL, else a container, else an embedded cluster. */
async function startPostgres(tmp: string, docker: boolean): Promise<void> {
  if (process.env['DATABASE_URL']) {
    process.env['TEST_PG_URL'] = process.env['DATABASE_URL'];
  } else if (docker) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const pg = await new PostgreSqlContainer('postgres:17-alpine')
      .withUsername('postgres')
      .withPassword('postgres')
      .start();
    started.push(() => pg.stop());
    process.env['TEST_PG_URL'] = pg.getConnectionUri().replace(/\/[^/]*$/, '/postgres');
  } else {
    const pg = await startEmbeddedPostgres(path.join(tmp, 'pg'), await freePort());
    started.push(async () => {
      await pg.stop();
      // Run as root from the private temp directory, the cluster's data lives in a reachable place of its own.
      rmSync(pg.dataDir, { recursive: true, force: true });
    });
    process.env['TEST_PG_URL'] = pg.url;
  }
}

/** NATS with JetStream for TEST_NATS_URL: NATS_URL, else a container, else a nats-server on the PATH. */
async function startNats(tmp: string, docker: boolean): Promise<void> {
  if (process.env['NATS_URL']) {
    process.env['TEST_NATS_URL'] = process.env['NATS_URL'];
  } else if (docker) {
    const { NatsContainer } = await import('@testcontainers/nats');
    const nats = await new NatsContainer('nats:2.10-alpine').withJetStream().start();
    started.push(() => nats.stop());
    process.env['TEST_NATS_URL'] = nats.getConnectionOptions().servers as string;
  } else if (hasNatsServer()) {
    const nats = await startNatsServer(path.join(tmp, 'nats'), await freePort());
    started.push(() => nats.stop());
    process.env['TEST_NATS_URL'] = nats.url;
  } else {
    throw new Error('No NATS: set NATS_URL, run Docker, or put nats-server on the PATH.');
  }
}

/** An S3 endpoint for TEST_S3_*: S3_ENDPOINT, else a MinIO container, else the embedded s3rver. */
async function startS3(tmp: string, docker: boolean): Promise<void> {
  if (process.env['S3_ENDPOINT']) {
    process.env['TEST_S3_ENDPOINT'] = process.env['S3_ENDPOINT'];
    process.env['TEST_S3_ACCESS_KEY'] = process.env['S3_ACCESS_KEY'] ?? '';
    process.env['TEST_S3_SECRET_KEY'] = process.env['S3_SECRET_KEY'] ?? '';
    process.env['TEST_S3_EMBEDDED'] = 'false';
  } else if (docker) {
    const { MinioContainer } = await import('@testcontainers/minio');
    const minio = await new MinioContainer('minio/minio:latest').start();
    started.push(() => minio.stop());
    process.env['TEST_S3_ENDPOINT'] = minio.getConnectionUrl();
    process.env['TEST_S3_ACCESS_KEY'] = minio.getUsername();
    process.env['TEST_S3_SECRET_KEY'] = minio.getPassword();
    process.env['TEST_S3_EMBEDDED'] = 'false';
  } else {
    const s3 = await startS3rver(path.join(tmp, 's3'), await freePort(), 'documents');
    started.push(() => s3.stop());
    process.env['TEST_S3_ENDPOINT'] = s3.url;
    process.env['TEST_S3_ACCESS_KEY'] = s3.accessKey;
    process.env['TEST_S3_SECRET_KEY'] = s3.secretKey;
    process.env['TEST_S3_EMBEDDED'] = 'true';
  }
}
