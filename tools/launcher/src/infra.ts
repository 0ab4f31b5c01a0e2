import path from 'node:path';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';
import {
  assertPortFree,
  freePort,
  hasNatsServer,
  startEmbeddedPostgres,
  startNatsServer,
  startS3rver,
} from '@register/embedded';
import { resolveZgw } from './zgw';

export interface S3Settings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

export interface Infrastructure {
  /** A server URL; each service gets a database of its own on it. */
  postgresUrl: string;
  /** NATS server URLs, or `in-process`: then the services must share one process (System runs them so). */
  natsUrl: string;
  s3: S3Settings;
  /** What was embedded (stopped with `stop`). */
  embedded: string[];
  /** The applications service's ZGW_* and NOTIFICATIES_AUTH settings (ADR 0011); none: mirroring off. */
  zgw?: Record<string, string>;
  stop: () => Promise<void>;
}

/**
 * ADR 0021: an explicit URL from the environment, else the embedded default. Without NATS_URL and
 * without a nats-server on the PATH (or with NATS_URL=in-process) events use the in-process transport.
 */
export async function resolveInfrastructure(env: NodeJS.ProcessEnv, dataDir: string): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  const stopStarted = async () => {
    for (const stop of [...stops].reverse()) await stop().catch(() => undefined);
  };
  try {
    return { ...(await startMissing(env, dataDir, stops)), stop: stopStarted };
  } catch (err) {
    // What did start (PostgreSQL before a taken S3 port, say) must not outlive the failed start.
    await stopStarted();
    throw err;
  }
}

async function startMissing(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  stops: Array<() => Promise<void>>,
): Promise<Omit<Infrastructure, 'stop'>> {
  const embedded: string[] = [];
  let postgresUrl = env['DATABASE_URL'];
  if (!postgresUrl) {
    const port = Number(env['EMBEDDED_PG_PORT'] ?? 5433);
    await assertPortFree(port, 'the embedded PostgreSQL', 'DATABASE_URL or EMBEDDED_PG_PORT');
    const pg = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), port);
    stops.push(pg.stop);
    embedded.push(`PostgreSQL (embedded) on port ${port}`);
    postgresUrl = pg.url;
  }
  let natsUrl = env['NATS_URL'];
  if (!natsUrl && !hasNatsServer()) {
    natsUrl = IN_PROCESS_EVENTS_URL;
    embedded.push('events: in-process transport, all services in one process (no nats-server on the PATH)');
  } else if (natsUrl === IN_PROCESS_EVENTS_URL) {
    embedded.push('events: in-process transport, all services in one process (NATS_URL=in-process)');
  } else if (!natsUrl) {
    const port = Number(env['EMBEDDED_NATS_PORT'] ?? (await freePort()));
    await assertPortFree(port, 'the embedded nats-server', 'NATS_URL or EMBEDDED_NATS_PORT');
    const nats = await startNatsServer(path.join(dataDir, 'nats'), port);
    stops.push(nats.stop);
    embedded.push(`nats-server with JetStream on port ${port}`);
    natsUrl = nats.url;
  }
  const bucket = env['S3_BUCKET'] ?? 'documents';
  let s3: S3Settings;
  if (env['S3_ENDPOINT']) {
    s3 = {
      endpoint: env['S3_ENDPOINT'],
      accessKey: env['S3_ACCESS_KEY'] ?? '',
      secretKey: env['S3_SECRET_KEY'] ?? '',
      bucket,
    };
  } else {
    const port = Number(env['EMBEDDED_S3_PORT'] ?? 9000);
    await assertPortFree(port, 'the embedded S3 endpoint', 'S3_ENDPOINT or EMBEDDED_S3_PORT');
    const server = await startS3rver(path.join(dataDir, 's3'), port, bucket);
    stops.push(server.stop);
    embedded.push(`S3 endpoint (s3rver, objects up to 64 MiB) on port ${port}`);
    s3 = { endpoint: server.url, accessKey: server.accessKey, secretKey: server.secretKey, bucket };
  }
  // The case system last: its simulator delivers notifications to the gateway (PORT, default 8080).
  const zgw = await resolveZgw(env, Number(env['PORT'] ?? 8080));
  stops.push(zgw.stop);
  embedded.push(...zgw.embedded);
  return { postgresUrl, natsUrl, s3, embedded, zgw: zgw.env };
}
