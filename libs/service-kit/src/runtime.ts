import http, { type RequestListener, type Server } from 'node:http';
import type { Logger } from './logger';

export interface RunningService {
  server: Server;
  /** Closed in order after the server stopped accepting and finished in-flight requests. */
  closers: Array<{ name: string; close: () => Promise<void> | void }>;
}

/** Listens on host:port and resolves with the server once it accepts connections. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Closes the server (in-flight requests finish), then the closers in order; failures are logged, not thrown. */
export async function shutdown(running: RunningService, logger: Logger): Promise<boolean> {
  let clean = true;
  await new Promise<void>((resolve) => {
    running.server.close(() => resolve());
    running.server.closeIdleConnections();
  });
  for (const closer of running.closers) {
    try {
      await closer.close();
    } catch (err) {
      logger.warn({ err, closer: closer.name }, 'close failed');
      clean = false;
    }
  }
  logger.info('stopped');
  return clean;
}

/** Turns SIGTERM/SIGINT into one ordered shutdown; a timer forces the exit if something hangs. */
export function handleShutdown(running: RunningService, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; forcing exit');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    if (!(await shutdown(running, logger))) process.exitCode = 1;
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Above the gateway agent's 30 s idle time, so the gateway never reuses a socket the service just closed. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Serves a service's app as every service does: keep-alive above the gateway's idle time, listen, then one
 * ordered shutdown (the server first, then the closers in the order given).
 */
export async function serveApp(app: RequestListener, options: ServeOptions): Promise<{ server: Server; port: number; url: string; context: unknown; stop(): Promise<boolean> }> {
  const server = http.createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const port = await listen(server, options.port, options.host);
  options.logger.info({ port }, `${options.service} listening`);
  const running = { server, closers: options.closers };
  if (options.signals !== false) handleShutdown(running, options.logger, options.shutdownTimeoutMs);
  let stopped: Promise<boolean> | null = null;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    context: undefined,
    stop: () => (stopped ??= shutdown(running, options.logger)),
  };
}

export interface ServeOptions {
  port: number;
  host: string;
  service: string;
  logger: Logger;
  shutdownTimeoutMs: number;
  closers: RunningService['closers'];
  /** False when a host process owns the signals and calls `stop` (the single-process mode). */
  signals?: boolean;
}

/** Runs a service's main; a start-up failure is logged and exits non-zero. */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), 100).unref();
  });
}
