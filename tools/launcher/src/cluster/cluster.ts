import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@register/embedded';
import type { Infrastructure } from '../infra';
import { SERVICES, START_ORDER, type Service } from '../services';
import { System } from '../system';
import { startHaproxy, type Balancer } from './haproxy';

export interface ClusterOptions {
  root: string;
  /** `natsUrl`: the NATS cluster's URLs, comma-separated. */
  infra: Infrastructure;
  logDir: string;
  /** Where HAProxy's configuration is written. */
  dataDir: string;
  /** Copies of each service (default two, three of the gateway). */
  replicas?: Partial<Record<Service, number>>;
  /** The load balancer's port in front of the gateways (0: a free one). */
  port?: number;
  /** Copies of the event stream (EVENTS_REPLICAS; default 3). */
  eventsReplicas?: number;
  databasePrefix?: string;
  secret?: string;
  logLevel?: string;
  settings?: NodeJS.ProcessEnv;
  /** Settings per service, over the cluster's own. */
  extraEnv?: Partial<Record<Service, NodeJS.ProcessEnv>>;
}

const DEFAULT_REPLICAS: Record<Service, number> = {
  gateway: 3,
  applications: 2,
  documents: 2,
  letters: 2,
  reference: 2,
  audit: 2,
};

const URL_SETTING: Record<Exclude<Service, 'gateway'>, string> = {
  applications: 'APPLICATIONS_URL',
  documents: 'DOCUMENTS_URL',
  letters: 'LETTERS_URL',
  reference: 'REFERENCE_URL',
  audit: 'AUDIT_URL',
};

/**
 * ADR 0203: the replicated system on one machine. Copy `i` of every service runs in `copies[i]` (a System of its
 * own ports, sharing the databases and the secret); the gateways spread requests over each service's copies;
 * the services reach each other through HAProxy (a Kubernetes Service's part), which also fronts the gateways.
 */
export class Cluster {
  readonly replicas: Record<Service, number>;
  copies: System[] = [];
  /** The load balancer in front of the gateways: the system's address. */
  url = '';
  /** Each service's address inside the cluster (HAProxy over its copies). */
  readonly internal = {} as Record<Exclude<Service, 'gateway'>, string>;
  private balancer: Balancer | null = null;

  constructor(private readonly options: ClusterOptions) {
    this.replicas = { ...DEFAULT_REPLICAS, ...options.replicas };
    mkdirSync(options.logDir, { recursive: true });
    mkdirSync(options.dataDir, { recursive: true });
  }

  /** The copies of `service` that run (copy i of a service exists when i < its replica count). */
  running(service: Service): System[] {
    return this.copies.filter((_, i) => i < this.replicas[service]);
  }

  async start(): Promise<void> {
    const count = Math.max(...Object.values(this.replicas));
    const ports = await Promise.all(
      Array.from({ length: count }, async () =>
        Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))),
      ),
    );
    const front = this.options.port || (await freePort());
    const internalPorts = Object.fromEntries(
      await Promise.all(Object.keys(URL_SETTING).map(async (s) => [s, await freePort()] as const)),
    ) as Record<Exclude<Service, 'gateway'>, number>;
    for (const [s, port] of Object.entries(internalPorts))
      this.internal[s as Exclude<Service, 'gateway'>] = `http://127.0.0.1:${port}`;
    this.url = `http://127.0.0.1:${front}`;
    const copyUrls = (s: Service) => ports.slice(0, this.replicas[s]).map((p) => `http://127.0.0.1:${p[s]}`);
    const secret = this.options.secret ?? (await import('node:crypto')).randomBytes(32).toString('hex');
    this.copies = ports.map(
      (p, i) =>
        new System({
          root: this.options.root,
          infra: this.options.infra,
          ports: p,
          databasePrefix: this.options.databasePrefix ?? 'register',
          logDir: this.options.logDir,
          logName: (s: Service) => `${s}-${i + 1}.log`,
          secret,
          ...(this.options.logLevel ? { logLevel: this.options.logLevel } : {}),
          ...(this.options.settings ? { settings: this.options.settings } : {}),
          extraEnv: this.envOfCopy(copyUrls),
        }),
    );
    this.balancer = await startHaproxy(
      this.options.dataDir,
      [
        { name: 'gateway', port: front, servers: copyUrls('gateway').map((u) => u.slice('http://'.length)) },
        ...Object.entries(internalPorts).map(([s, port]) => ({
          name: s,
          port,
          servers: copyUrls(s as Service).map((u) => u.slice('http://'.length)),
        })),
      ],
      path.join(this.options.logDir, 'haproxy.log'),
    );
    for (const group of START_ORDER)
      await Promise.all(group.flatMap((s) => this.running(s).map((copy) => copy.start(s))));
    await this.untilReady();
  }

  /** What every copy gets over the launcher's settings: internal URLs, the gateways' copy lists, R3 events. */
  private envOfCopy(copyUrls: (s: Service) => string[]): Partial<Record<Service, NodeJS.ProcessEnv>> {
    const events = { EVENTS_REPLICAS: String(this.options.eventsReplicas ?? 3), METRICS_PORT: 'off' };
    const internal = Object.fromEntries(Object.entries(URL_SETTING).map(([s, n]) => [n, this.internal[s as never]]));
    const lists = Object.fromEntries(
      Object.entries(URL_SETTING).map(([s, n]) => [n, copyUrls(s as Service).join(',')]),
    );
    return Object.fromEntries(
      SERVICES.map((s) => [s, { ...events, ...(s === 'gateway' ? lists : internal), ...this.options.extraEnv?.[s] }]),
    );
  }

  /** Every copy of every service ready, and the load balancer answering. */
  async untilReady(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const urls = SERVICES.flatMap((s) => this.running(s).map((c) => c.url(s)));
      const answers = await Promise.all(
        [...urls, this.url].map((u) =>
          fetch(`${u}/health/ready`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => r.ok,
            () => false,
          ),
        ),
      );
      if (answers.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error(`the cluster is not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Gateways first, the audit consumers last; then the load balancer. */
  async stop(): Promise<void> {
    for (const group of [...START_ORDER].reverse())
      await Promise.all(group.flatMap((s) => this.running(s).map((copy) => copy.stop(s))));
    await this.balancer?.stop();
    this.balancer = null;
  }
}
