import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, waitForPort } from '@register/embedded';

/** One node of the cluster: it can be killed (SIGKILL) and started again on its ports and store. */
export interface NatsNode {
  name: string;
  url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface NatsCluster {
  /** Every node's client URL, comma-separated: what NATS_URL gets. */
  url: string;
  nodes: NatsNode[];
  stop(): Promise<void>;
}

const exited = (child: ChildProcess | null) =>
  new Promise<void>((resolve) =>
    child && child.exitCode === null && child.signalCode === null ? child.once('exit', () => resolve()) : resolve(),
  );

/**
 * `size` nats-servers with JetStream routed into one cluster on free ports, each with its store under `dir`
 * (ADR 0203). Resolves once JetStream has a meta leader, so a stream can be created at three replicas.
 */
export async function startNatsCluster(dir: string, size = 3): Promise<NatsCluster> {
  const client = await Promise.all(Array.from({ length: size }, () => freePort()));
  const cluster = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routes = cluster.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const nodes = client.map((port, i): NatsNode => {
    const name = `nats-${i + 1}`;
    const store = path.join(dir, name);
    mkdirSync(store, { recursive: true });
    const args = ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store, '-n', name];
    args.push('--cluster_name', 'register', '--cluster', `nats://127.0.0.1:${cluster[i]}`, '--routes', routes);
    let child: ChildProcess | null = null;
    const signal = async (sig: NodeJS.Signals) => {
      const done = exited(child);
      child?.kill(sig);
      await done;
    };
    return {
      name,
      url: `nats://127.0.0.1:${port}`,
      async start() {
        if (child && child.exitCode === null && child.signalCode === null) return;
        child = spawn('nats-server', args, { stdio: 'ignore' });
        await waitForPort(port);
      },
      kill: () => signal('SIGKILL'),
      stop: () => signal('SIGTERM'),
    };
  });
  await Promise.all(nodes.map((n) => n.start()));
  const url = nodes.map((n) => n.url).join(',');
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    await jetStreamReady(url);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, nodes, stop };
}

/** Waits until the cluster answers JetStream requests (a meta leader is elected). */
export async function jetStreamReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nc = await connect({ servers: url.split(','), name: 'cluster-check' });
  try {
    for (;;) {
      const ok = await jetstreamManager(nc, { timeout: 2000 })
        .then((jsm) => jsm.getAccountInfo())
        .then(
          () => true,
          () => false,
        );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`the NATS cluster has no JetStream leader after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await nc.close();
  }
}
