import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Infrastructure } from './infra';

export const SERVICES = ['reference', 'audit', 'documents', 'applications', 'letters', 'gateway'] as const;
export type Service = (typeof SERVICES)[number];

export const DEFAULT_PORTS: Record<Service, number> = { gateway: 8080, applications: 8081, documents: 8082, letters: 8083, reference: 8084, audit: 8085 };

export interface SystemOptions {
  root: string;
  infra: Infrastructure;
  ports?: Partial<Record<Service, number>>;
  /** Database name prefix: `<prefix>_<service>` (tests use a unique one per run). */
  databasePrefix?: string;
  logDir: string;
  secret?: string;
  extraEnv?: Partial<Record<Service, NodeJS.ProcessEnv>>;
  logLevel?: string;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The six services as separate processes, as in production; each can be stopped and started again. */
export class System {
  readonly ports: Record<Service, number>;
  readonly secret: string;
  private readonly children = new Map<Service, ChildProcess>();

  constructor(private readonly options: SystemOptions) {
    this.ports = { ...DEFAULT_PORTS, ...options.ports };
    this.secret = options.secret ?? randomBytes(32).toString('hex');
    mkdirSync(options.logDir, { recursive: true });
  }

  pid(service: Service): number | undefined {
    return this.children.get(service)?.pid;
  }

  url(service: Service): string {
    return `http://127.0.0.1:${this.ports[service]}`;
  }

  private env(service: Service): NodeJS.ProcessEnv {
    const { infra } = this.options;
    return {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      TZ: process.env['TZ'],
      PORT: String(this.ports[service]),
      HOST: '127.0.0.1',
      DATABASE_URL: withDatabase(infra.postgresUrl, `${this.options.databasePrefix ?? 'register'}_${service}`),
      NATS_URL: infra.natsUrl,
      INTERNAL_IDENTITY_SECRET: this.secret,
      LOG_LEVEL: this.options.logLevel ?? 'info',
      S3_ENDPOINT: infra.s3.endpoint,
      S3_ACCESS_KEY: infra.s3.accessKey,
      S3_SECRET_KEY: infra.s3.secretKey,
      S3_BUCKET: infra.s3.bucket,
      APPLICATIONS_URL: this.url('applications'),
      DOCUMENTS_URL: this.url('documents'),
      LETTERS_URL: this.url('letters'),
      REFERENCE_URL: this.url('reference'),
      AUDIT_URL: this.url('audit'),
      ...this.options.extraEnv?.[service],
    };
  }

  /** Starts one service and waits until it answers /health/ready (or its own /health for the gateway). */
  async start(service: Service, timeoutMs = 60_000): Promise<void> {
    if (this.children.has(service)) return;
    const log = createWriteStream(path.join(this.options.logDir, `${service}.log`), { flags: 'a' });
    const child = spawn(process.execPath, [path.join(this.options.root, 'services', service, 'dist', 'src', 'main.js')], {
      env: this.env(service),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.children.set(service, child);
    child.once('exit', () => this.children.delete(service));
    const deadline = Date.now() + timeoutMs;
    const probe = service === 'gateway' ? '/health' : '/health/ready';
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}; see ${path.join(this.options.logDir, `${service}.log`)}`);
      const ok = await fetch(this.url(service) + probe, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`${service} not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  async stop(service: Service): Promise<void> {
    const child = this.children.get(service);
    if (!child) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** Backing services first (reference before the readers of its flags), the gateway last. */
  async startAll(): Promise<void> {
    await this.start('reference');
    await Promise.all((['audit', 'documents', 'applications', 'letters'] as const).map((s) => this.start(s)));
    await this.start('gateway');
  }

  async stopAll(): Promise<void> {
    await this.stop('gateway');
    await Promise.all([...this.children.keys()].map((s) => this.stop(s)));
  }
}
