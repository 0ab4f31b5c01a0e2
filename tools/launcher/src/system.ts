import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { IN_PROCESS_EVENTS_URL, telemetrySettingsSchema } from '@register/service-kit';
import type { Infrastructure } from './infra';
import { DEFAULT_PORTS, SERVICES, START_ORDER, type Service } from './services';
import { metricsPort, passedOn } from './settings/passed-on';
import { SINGLE_PROCESS_ENV, type SingleProcessSettings } from './single-process-settings';

export { DEFAULT_PORTS, SERVICES, START_ORDER, type Service } from './services';

export interface SystemOptions {
  root: string;
  /**
   * The tree a service runs from when not `root` (a built checkout of another version: the mixed-version test runs
   * one service from the v1.0.0 tree beside the others from HEAD, ADR 0230). `useTree` changes it between starts.
   */
  trees?: Partial<Record<Service, string>>;
  infra: Infrastructure;
  ports?: Partial<Record<Service, number>>;
  /** Database name prefix: `<prefix>_<service>` (tests use a unique one per run). */
  databasePrefix?: string;
  logDir: string;
  secret?: string;
  extraEnv?: Partial<Record<Service, NodeJS.ProcessEnv>>;
  logLevel?: string;
  /** The environment whose settings the services get (see serviceEnv); default: this process's. */
  settings?: NodeJS.ProcessEnv;
  /** A service's log file in `logDir` (default `<service>.log`; the cluster's copies add their number). */
  logName?: (service: Service) => string;
}

/** The database of `service` in a system whose `databasePrefix` is `prefix` (none: `register`). */
export const systemDatabase = (prefix: string | undefined, service: Service): string =>
  `${prefix ?? 'register'}_${service}`;

/** Drops every database of the system with `prefix` on the server (a test's or bench's system goes with them). */
export async function dropSystemDatabases(postgresUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (const s of SERVICES) await client.query(`DROP DATABASE IF EXISTS "${systemDatabase(prefix, s)}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * npm start's processing-log pseudonym key when none is set (ADR 0181): fixed, so that the inzage finds the records
 * of an earlier run on the same data. A development value only: a deployment sets its own secret.
 */
export const DEV_LDV_PSEUDONYM_SECRET = 'npm-start-dev-ldv-pseudonym-secret-not-for-production';

/**
 * What one service is started with: every setting it reads that `settings` (the launcher's environment) has,
 * except those the launcher decides: its port, its own database on the server, and where the others are.
 */
export function serviceEnv(
  service: Service,
  options: {
    infra: Pick<Infrastructure, 'postgresUrl' | 'natsUrl' | 's3' | 'zgw'>;
    databasePrefix?: string;
    extraEnv?: SystemOptions['extraEnv'];
    logLevel?: string;
    settings?: NodeJS.ProcessEnv;
  },
  ports: Record<Service, number>,
  secret: string,
): NodeJS.ProcessEnv {
  const { infra } = options;
  const settings = options.settings ?? process.env;
  const url = (s: Service) => `http://127.0.0.1:${ports[s]}`;
  return {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    TZ: process.env['TZ'],
    ...passThrough(['TMPDIR']),
    ...passedOn(service, settings),
    ...metricsPort(service, settings),
    PORT: String(ports[service]),
    DATABASE_URL: withDatabase(infra.postgresUrl, systemDatabase(options.databasePrefix, service)),
    NATS_URL: infra.natsUrl,
    INTERNAL_IDENTITY_SECRET: secret,
    LDV_PSEUDONYM_SECRET: settings['LDV_PSEUDONYM_SECRET'] || DEV_LDV_PSEUDONYM_SECRET,
    LOG_LEVEL: settings[`${service.toUpperCase()}_LOG_LEVEL`] ?? options.logLevel ?? 'info',
    S3_ENDPOINT: infra.s3.endpoint,
    S3_ACCESS_KEY: infra.s3.accessKey,
    S3_SECRET_KEY: infra.s3.secretKey,
    S3_BUCKET: infra.s3.bucket,
    APPLICATIONS_URL: url('applications'),
    DOCUMENTS_URL: url('documents'),
    LETTERS_URL: url('letters'),
    REFERENCE_URL: url('reference'),
    AUDIT_URL: url('audit'),
    // The case mirror and the notification webhook are the applications service's (ADR 0011).
    ...(service === 'applications' ? infra.zgw : {}),
    ...options.extraEnv?.[service],
  };
}

/** The tracing settings: the single-process child's OpenTelemetry SDK reads them from its own environment. */
function telemetry(settings: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const names = Object.keys(telemetrySettingsSchema.shape);
  return Object.fromEntries(names.filter((n) => settings[n] !== undefined).map((n) => [n, settings[n]]));
}

function passThrough(names: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(names.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]));
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
  /**
   * All six services in one Node process: the in-process event transport (`infra.natsUrl` = `in-process`)
   * reaches only the services of its own process (ADR 0037).
   */
  readonly singleProcess: boolean;
  private readonly children = new Map<Service, ChildProcess>();
  private readonly trees: Partial<Record<Service, string>>;

  constructor(private readonly options: SystemOptions) {
    this.ports = { ...DEFAULT_PORTS, ...options.ports };
    this.trees = { ...options.trees };
    this.secret = options.secret ?? randomBytes(32).toString('hex');
    this.singleProcess = options.infra.natsUrl === IN_PROCESS_EVENTS_URL;
    if (this.singleProcess && Object.keys(this.trees).length > 0)
      throw new Error('single-process mode runs every service from one tree; trees need separate processes');
    mkdirSync(options.logDir, { recursive: true });
  }

  pid(service: Service): number | undefined {
    return this.children.get(this.singleProcess ? 'gateway' : service)?.pid;
  }

  url(service: Service): string {
    return `http://127.0.0.1:${this.ports[service]}`;
  }

  /** The tree `service` runs from at its next start (a running process keeps its own until stopped). */
  useTree(service: Service, root: string): void {
    this.trees[service] = root;
  }

  treeOf(service: Service): string {
    return this.trees[service] ?? this.options.root;
  }

  private env(service: Service): NodeJS.ProcessEnv {
    return serviceEnv(service, this.options, this.ports, this.secret);
  }

  /** Starts one service and waits until it answers /health/ready (or its own /health for the gateway). */
  async start(service: Service, timeoutMs = 60_000): Promise<void> {
    if (this.singleProcess)
      throw new Error('single-process mode starts and stops the services together (startAll/stopAll)');
    if (this.children.has(service)) return;
    const logName = this.options.logName?.(service) ?? `${service}.log`;
    const child = this.spawn(
      service,
      path.join(this.treeOf(service), 'services', service, 'dist', 'src', 'main.js'),
      this.env(service),
      logName,
    );
    await this.waitUntilUp(service, child, logName, timeoutMs);
  }

  private spawn(key: Service, script: string, env: NodeJS.ProcessEnv, logName = `${key}.log`): ChildProcess {
    const log = createWriteStream(path.join(this.options.logDir, logName), { flags: 'a' });
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.children.set(key, child);
    child.once('exit', () => this.children.delete(key));
    return child;
  }

  private async waitUntilUp(
    service: Service,
    child: ChildProcess,
    logName: string,
    timeoutMs: number,
    probe = service === 'gateway' ? '/health' : '/health/ready',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) {
        const log = path.join(this.options.logDir, logName);
        // Its last words belong in the error: the log directory may be gone by the time someone reads it.
        await new Promise((r) => setTimeout(r, 100));
        throw new Error(`${service} exited with ${child.exitCode} (${lastWords(log)}); see ${log}`);
      }
      const ok = await fetch(this.url(service) + probe, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`${service} not ready after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  /** The single-process mode: one child runs every service (see single-process.ts); its log is `system.log`. */
  private async startSingleProcess(timeoutMs = 90_000): Promise<void> {
    if (this.children.has('gateway')) return;
    // Every service's environment is made here, as for separate processes; the child only starts them.
    const settings: SingleProcessSettings = {
      envs: Object.fromEntries(SERVICES.map((s) => [s, this.env(s)])) as Record<Service, NodeJS.ProcessEnv>,
      ...(this.options.logLevel ? { logLevel: this.options.logLevel } : {}),
    };
    const env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      TZ: process.env['TZ'],
      ...passThrough(['TMPDIR']),
      ...telemetry(this.options.settings ?? process.env),
      [SINGLE_PROCESS_ENV]: JSON.stringify(settings),
    };
    const child = this.spawn(
      'gateway',
      path.join(this.options.root, 'tools', 'launcher', 'dist', 'single-process.js'),
      env,
      'system.log',
    );
    // Each service's own readiness: the gateway's covers only itself (ADR 0200).
    const deadline = Date.now() + timeoutMs;
    for (const service of SERVICES)
      await this.waitUntilUp(service, child, 'system.log', Math.max(deadline - Date.now(), 0), '/health/ready');
  }

  async stop(service: Service): Promise<void> {
    const child = this.children.get(service);
    if (!child) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      // 'close', not 'exit': the last log lines are still in the pipes when the process exits.
      child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** SIGKILL: a crash; resolves once the process is gone. */
  async kill(service: Service): Promise<void> {
    const child = this.children.get(service);
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async startAll(): Promise<void> {
    if (this.singleProcess) return this.startSingleProcess();
    for (const group of START_ORDER) await Promise.all(group.map((s) => this.start(s)));
  }

  /** The reverse of the start order: the gateway first, the audit consumer last. */
  async stopAll(): Promise<void> {
    for (const group of [...START_ORDER].reverse()) await Promise.all(group.map((s) => this.stop(s)));
  }
}

/** The last error a service logged before it exited (pino JSON: its message and error), or the log's last line. */
export function lastWords(logFile: string): string {
  let lines: string[];
  try {
    lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  } catch {
    return 'no log';
  }
  for (const line of lines.slice().reverse()) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50) return [entry.msg, entry.err?.message].filter(Boolean).join(': ');
    } catch {
      // not JSON: a plain line (a crash before the logger existed)
    }
  }
  return (lines.at(-1) ?? 'empty log').slice(0, 500);
}
