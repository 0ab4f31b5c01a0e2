import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { assertPortFree, dataDirOf } from '@register/embedded';
import { resolveInfrastructure, type Infrastructure } from '../infra';
import { SERVICES } from '../services';
import { Cluster } from './cluster';
import { startNatsCluster, type NatsCluster } from './nats-cluster';

// `npm run cluster` (ADR 0203): every service replicated behind HAProxy, a three-node NATS cluster, the one
// PostgreSQL, an S3 endpoint and the ZGW simulator with mirroring on. `npm start` stays the single copy.
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const dataDir = path.join(dataDirOf(process.env, root), 'cluster');
  const port = Number(process.env['PORT'] ?? 8080);
  await assertPortFree(port, 'the load balancer in front of the gateways', 'PORT');
  const nats = await startNatsCluster(path.join(dataDir, 'nats'));
  let infra: Infrastructure | null = null;
  let cluster: Cluster | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping…\n');
    await cluster?.stop();
    await infra?.stop();
    await nats.stop();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    infra = await resolveInfrastructure(
      {
        ...process.env,
        NATS_URL: nats.url,
        PORT: String(port),
        ZGW_ENABLED: 'true',
        NOTIFICATIES_AUTH: process.env['NOTIFICATIES_AUTH'] || `Token ${randomBytes(16).toString('hex')}`,
      },
      dataDir,
    );
    cluster = new Cluster({
      root,
      infra,
      port,
      dataDir,
      logDir: path.join(dataDir, 'logs'),
      settings: process.env,
      ...(process.env['LOG_LEVEL'] ? { logLevel: process.env['LOG_LEVEL'] } : {}),
    });
    await cluster.start();
  } catch (err) {
    process.stderr.write(`Could not start the cluster: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop();
    process.exitCode = 1;
    return;
  }
  process.stdout.write(banner(cluster, nats, infra, dataDir));
}

function banner(cluster: Cluster, nats: NatsCluster, infra: Infrastructure, dataDir: string): string {
  const copies = SERVICES.map(
    (s) =>
      `    ${s.padEnd(13)} ${cluster
        .running(s)
        .map((c) => c.url(s))
        .join('  ')}`,
  );
  const internal = Object.entries(cluster.internal).map(([s, url]) => `    ${s.padEnd(13)} ${url}`);
  return [
    '',
    `Register API (HAProxy over ${cluster.replicas.gateway} gateways) is up at ${cluster.url}`,
    `  Swagger UI: ${cluster.url}/docs   Console: ${cluster.url}/console/`,
    '  Copies of each service:',
    ...copies,
    '  Each service inside the cluster (HAProxy over its copies):',
    ...internal,
    `  NATS cluster (JetStream, the stream at 3 replicas): ${nats.nodes.map((n) => `${n.name} ${n.url}`).join(', ')}`,
    `  PostgreSQL: ${new URL(infra.postgresUrl).host}   S3: ${infra.s3.endpoint}`,
    ...infra.embedded.map((e) => `  ${e}`),
    `  Logs: ${path.join(dataDir, 'logs')}`,
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
