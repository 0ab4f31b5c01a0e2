import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { createTestDatabase, natsUrl, TEST_LDV_SECRET, TEST_SECRET, testEventsEnv, type TestDatabase } from './core';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Another service, started for a test as its own process from its build (`services/<name>/dist/src/main.js`),
 * never imported: tests of one service never reach into another's code. It can be stopped, killed (SIGKILL),
 * paused (SIGSTOP) and started again on the same port and database.
 */
export interface Neighbour {
  name: string;
  url: string;
  port: number;
  databaseUrl: string;
  pid(): number | undefined;
  /** Starts it (again), with `env` over its settings for this start, and waits until /health/ready answers 200. */
  start(env?: Record<string, string>): Promise<void>;
  /** SIGTERM and wait for the exit (the ordered shutdown). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: a crash. */
  kill(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Stops it and drops its database. */
  close(): Promise<void>;
}

export interface NeighbourOptions {
  env?: Record<string, string>;
  /** Reuse a database (a second copy of a service); by default one of its own is created and dropped. */
  database?: TestDatabase;
  readyTimeoutMs?: number;
}

/** A service's environment: this run's infrastructure, the test secrets, and what the test adds. */
function neighbourEnv(port: number, databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    ...(process.env['TMPDIR'] ? { TMPDIR: process.env['TMPDIR'] } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl(),
    ...testEventsEnv(),
    INTERNAL_IDENTITY_SECRET: TEST_SECRET,
    LDV_PSEUDONYM_SECRET: TEST_LDV_SECRET,
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'warn',
    // No metrics port unless a test asks for one: parallel test services would contend for the defaults.
    METRICS_PORT: 'off',
    ...extra,
  };
}

/** Polls the service's readiness; throws, with its recent output, if it exits or the deadline passes first. */
async function untilReady(
  name: string,
  child: ChildProcess,
  url: string,
  deadline: number,
  output: () => string,
): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} while starting:\n${output()}`);
    const ok = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} not ready on ${url}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startNeighbour(name: string, options: NeighbourOptions = {}): Promise<Neighbour> {
  const database = options.database ?? (await createTestDatabase(name));
  const ownsDatabase = !options.database;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const script = path.join(ROOT, 'services', name, 'dist', 'src', 'main.js');
  let child: ChildProcess | null = null;
  let output = '';
  const env = neighbourEnv(port, database.url, options.env);
  const exited = () =>
    new Promise<void>((resolve) =>
      child && child.exitCode === null && child.signalCode === null ? child.once('exit', () => resolve()) : resolve(),
    );
  const neighbour: Neighbour = {
    name,
    url,
    port,
    databaseUrl: database.url,
    pid: () => child?.pid,
    async start(override: Record<string, string> = {}) {
      if (child && child.exitCode === null && child.signalCode === null) return;
      output = '';
      child = spawn(process.execPath, [script], { env: { ...env, ...override }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
      child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
      await untilReady(name, child, url, Date.now() + (options.readyTimeoutMs ?? 60_000), () => output);
    },
    async stop() {
      if (!child) return;
      const done = exited();
      child.kill('SIGTERM');
      await done;
    },
    async kill() {
      if (!child) return;
      const done = exited();
      child.kill('SIGKILL');
      await done;
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async close() {
      child?.kill('SIGCONT');
      await neighbour.stop();
      if (ownsDatabase) await database.drop();
    },
  };
  await neighbour.start();
  return neighbour;
}
