import path from 'node:path';
import { freePort, hasNatsServer, startEmbeddedPostgres, startNatsServer, startS3rver } from '@register/embedded';

export interface S3Settings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

export interface Infrastructure {
  /** A server URL; each service gets a database of its own on it. */
  postgresUrl: string;
  natsUrl: string;
  s3: S3Settings;
  /** What was embedded (stopped with `stop`). */
  embedded: string[];
  stop(): Promise<void>;
}

/** architecture.md: an explicit URL from the environment, else the embedded default. */
export async function resolveInfrastructure(env: NodeJS.ProcessEnv, dataDir: string): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  const embedded: string[] = [];
  let postgresUrl = env['DATABASE_URL'];
  if (!postgresUrl) {
    const port = Number(env['EMBEDDED_PG_PORT'] ?? 5433);
    const pg = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), port);
    stops.push(pg.stop);
    embedded.push(`PostgreSQL (embedded) on port ${port}`);
    postgresUrl = pg.url;
  }
  let natsUrl = env['NATS_URL'];
  if (!natsUrl) {
    if (!hasNatsServer()) throw new Error('NATS_URL is not set and no nats-server is on the PATH (install it, e.g. apt-get install nats-server).');
    const port = Number(env['EMBEDDED_NATS_PORT'] ?? (await freePort()));
    const nats = await startNatsServer(path.join(dataDir, 'nats'), port);
    stops.push(nats.stop);
    embedded.push(`nats-server with JetStream on port ${port}`);
    natsUrl = nats.url;
  }
  const bucket = env['S3_BUCKET'] ?? 'documents';
  let s3: S3Settings;
  if (env['S3_ENDPOINT']) {
    s3 = { endpoint: env['S3_ENDPOINT'], accessKey: env['S3_ACCESS_KEY'] ?? '', secretKey: env['S3_SECRET_KEY'] ?? '', bucket };
  } else {
    const port = Number(env['EMBEDDED_S3_PORT'] ?? 9000);
    const server = await startS3rver(path.join(dataDir, 's3'), port, bucket);
    stops.push(server.stop);
    embedded.push(`S3 endpoint (s3rver, objects up to 64 MiB) on port ${port}`);
    s3 = { endpoint: server.url, accessKey: server.accessKey, secretKey: server.secretKey, bucket };
  }
  return {
    postgresUrl,
    natsUrl,
    s3,
    embedded,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}
