import http, { type RequestListener } from 'node:http';
import path from 'node:path';
import type { Router } from 'express';
import type { Kysely, Migration } from 'kysely';
import type { z } from 'zod';
import type { ServiceName } from '@register/contracts';
import { ConfigError, loadConfig, type BaseConfig } from './config';
import { openServiceDatabase, type Database } from './database';
import { checkReadiness, createServiceApp, type ReadinessCheck } from './http';
import type { Job } from './job-loop';
import { createLogger, type Logger } from './logger';
import { openEventBus, type ServiceEvents } from './nats';
import { logProcessWarnings } from './process-warnings';
import { OpenAPIRegistry, generateOpenApi } from './openapi';
import { describeOperations, operationsRouter, type AnyOperation, type OperationsProcessing } from './operations';
import type { WithOutbox } from './outbox';
import { noProcessingLog, processingLog, type ProcessingLog } from './processing-log';
import { ProcessingSpool } from './processing-spool';
import { RequestLoad } from './request-load';
import { KEEP_ALIVE_TIMEOUT_MS, listen } from './runtime';
import {
  DEFAULT_METRICS_PORTS,
  type ServiceMetrics,
  createServiceMetrics,
  gaugeCallback,
  poolMetrics,
  serveMetrics,
} from './telemetry/metrics';

export interface Closer {
  name: string;
  close: () => Promise<void> | void;
}

/** What the kit opens for every service before its context is built. */
export interface ServiceResources<DB> {
  logger: Logger;
  database: Database<DB>;
  events: ServiceEvents;
  /** The processing log (Logboek Dataverwerkingen): what jobs write their processing to (ADR 0182). */
  processing: ProcessingLog;
  /** The requests this process is answering (per second, lately): background work yields to them (ADR 0273). */
  requests: RequestLoad;
}

/** What a service's `buildContext` returns: the context, and what to close (after the jobs) on shutdown. */
export interface Built<Ctx> {
  context: Ctx;
  closers?: Closer[];
  readiness?: Record<string, ReadinessCheck>;
  /**
   * Gauges read at each scrape of `/metrics` (e.g. the case mirror's backlog): name (snake_case) → help and read;
   * with `label`, the read gives a value per label value (e.g. dead letters per consumer).
   */
  metrics?: Record<
    string,
    {
      help: string;
      read: () => Promise<number | Record<string, number>> | number | Record<string, number>;
      label?: string;
    }
  >;
}

export interface ServiceDefinition<C extends BaseConfig, DB, Ctx> {
  name: ServiceName;
  configSchema: z.ZodType<C>;
  migrations: Record<string, Migration>;
  /** The composition root: builds the real adapters from the config and the kit's resources. */
  buildContext: (config: C, resources: ServiceResources<DB>) => Built<Ctx> | Promise<Built<Ctx>>;
  /** Operations: parsed once by their schemas, mounted behind their rules and described in `/openapi.json`. */
  routes?: readonly AnyOperation<Ctx>[];
  /** Routers mounted after the operations (what is not an operation). */
  routers?: ReadonlyArray<(ctx: Ctx) => Router>;
  /** Background work, started once the server listens and stopped (in reverse) before the closers. */
  jobs?: ReadonlyArray<(ctx: Ctx, resources: ServiceResources<DB>) => Job>;
  /** The whole request listener instead of the kit's service app (the gateway, which has no signed identity). */
  app?: (
    ctx: Ctx,
    kit: { readiness: Record<string, ReadinessCheck>; logger: Logger; processing: OperationsProcessing },
  ) => RequestListener;
  /** JSON body limit of the service's routes. */
  jsonLimit?: string;
  /**
   * Whether the service processes practitioners' personal data outside its operations' rules (the gateway's own
   * routes, jobs): then, as with a route that names an activity, LDV_PSEUDONYM_SECRET is required while LDV_LOG is on.
   */
  processesPersonalData?: boolean;
}

export interface StartOptions<Ctx = unknown> {
  /**
   * Default true: the service owns its process: handles SIGTERM/SIGINT and logs Node's process warnings. False when a
   * host process does.
   */
  ownsProcess?: boolean;
  /** Tests only: replace parts of the built context (a clock, a slow neighbour). */
  override?: (context: Ctx) => Ctx;
}

/** A service that is listening: its own process's `main`, one of several in the single-process mode, or a test's. */
export interface ServedApp<Ctx = unknown> {
  server: http.Server;
  port: number;
  url: string;
  context: Ctx;
  /** Where `GET /metrics` answers (METRICS_PORT), or null when it is off or its port was taken. */
  metricsUrl: string | null;
  /** The ordered shutdown; resolves true when every step succeeded. Idempotent. */
  stop(): Promise<boolean>;
}

export type StartService<Ctx = unknown> = (
  env: NodeJS.ProcessEnv,
  options?: StartOptions<Ctx>,
) => Promise<ServedApp<Ctx>>;

/** The service's own OpenAPI document, generated from its operations' schemas. */
export function serviceOpenApi(name: string, routes: readonly AnyOperation<never>[]): object {
  const registry = new OpenAPIRegistry();
  describeOperations(registry, routes);
  return generateOpenApi(registry, name);
}

/**
 * Everything a service's start has in common: config (every problem listed), logger, its database (created,
 * migrated), the event transport, the context, the app, listening, jobs, readiness with a drain, and one
 * ordered shutdown. `main.ts` is this one call; it starts at once when the file is the program.
 */
export function runService<C extends BaseConfig, DB, Ctx>(
  module: NodeJS.Module,
  definition: ServiceDefinition<C, DB, Ctx>,
): StartService<Ctx> {
  const start: StartService<Ctx> = (env, options = {}) => startService(definition, env, options);
  if (require.main === module) {
    // `main.js migrate`: migrate the database and exit (ADR 0201: Kubernetes' init container, before the pod serves).
    const migrateOnly = process.argv[2] === 'migrate';
    const run = migrateOnly ? migrate(definition, process.env) : start(process.env);
    run.catch((err: unknown) => {
      const what = migrateOnly ? 'could not migrate' : 'could not start';
      process.stderr.write(`${definition.name} ${what}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
      setTimeout(() => process.exit(1), 100).unref();
    });
  }
  return start;
}

/** Creates and migrates the service's database (under the migration lock), then closes it. */
async function migrate<C extends BaseConfig, DB, Ctx>(
  definition: ServiceDefinition<C, DB, Ctx>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const config = loadConfig(definition.configSchema, env);
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  const database = await openServiceDatabase<DB>(config.DATABASE_URL, logger, definition.migrations, {
    max: 2,
    min: 0,
  });
  await database.close();
  logger.info('migrated');
}

/**
 * The steps of an ordered shutdown, closed last-added first; `closeAll` tries every step and resolves true when
 * each succeeded.
 */
class ShutdownSteps {
  private readonly steps: Closer[] = [];

  constructor(private readonly logger: Logger) {}

  add(step: Closer): void {
    this.steps.push(step);
  }

  /** Just below the last step added (the server): closed right after it. */
  addBelowLast(step: Closer): void {
    this.steps.splice(this.steps.length - 1, 0, step);
  }

  async closeAll(): Promise<boolean> {
    let clean = true;
    for (const step of this.steps.reverse()) {
      try {
        await step.close();
        this.logger.debug({ step: step.name }, 'closed');
      } catch (err) {
        this.logger.warn({ err, step: step.name }, 'close failed');
        clean = false;
      }
    }
    this.steps.length = 0;
    return clean;
  }
}

/** Whether a service's process is draining after SIGTERM (readiness answers false, the server still serves). */
interface Drain {
  draining: boolean;
}

async function startService<C extends BaseConfig, DB, Ctx>(
  definition: ServiceDefinition<C, DB, Ctx>,
  env: NodeJS.ProcessEnv,
  options: StartOptions<Ctx>,
): Promise<ServedApp<Ctx>> {
  const config = loadConfig(definition.configSchema, env);
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  // A service that owns its process (its signals) owns its warnings too: into its log, as JSON.
  if (options.ownsProcess !== false) logProcessWarnings(logger);
  const metrics = createServiceMetrics(definition.name, logger);
  const shutdown = new ShutdownSteps(logger);
  try {
    const opened = await openResources<DB>(definition.name, config, logger, metrics, shutdown, definition.migrations);
    const resources: ServiceResources<DB> = {
      ...opened,
      processing: await processingLogOf(definition, config, opened, logger, metrics, shutdown),
      requests: new RequestLoad(),
    };
    const built = await definition.buildContext(config, resources);
    // Closers run in reverse of this list: the context's own, in the order it gave them, before events and database.
    for (const closer of [...(built.closers ?? [])].reverse()) shutdown.add(closer);
    for (const [name, gauge] of Object.entries(built.metrics ?? {}))
      gaugeCallback(metrics.registry, name, gauge.help, gauge.read, gauge.label);
    const context = options.override ? options.override(built.context) : built.context;
    const jobs = (definition.jobs ?? []).map((make) => make(context, resources));
    const drain: Drain = { draining: false };
    const readiness = readinessChecks(resources, built, jobs, drain);
    readinessGauge(metrics, readiness);
    const listener = serviceListener(definition, context, config, resources, readiness);
    const metricsServer = await startMetricsServer(definition.name, config, metrics, logger, shutdown);
    const { server, port } = await startServer(definition.name, listener, config, logger, shutdown);
    await startJobs(jobs, shutdown);
    const stop = stopOnce(shutdown, logger);
    if (options.ownsProcess !== false) stopOnSignals(config, logger, drain, stop);
    const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
    const metricsUrl = metricsServer ? `http://${host}:${metricsServer.port}/metrics` : null;
    return { server, port, url: `http://${host}:${port}`, metricsUrl, context, stop };
  } catch (err) {
    await shutdown.closeAll();
    throw err;
  }
}

/** The database (created, migrated) and the event transport, each closed last on shutdown. */
async function openResources<DB>(
  name: ServiceName,
  config: BaseConfig,
  logger: Logger,
  metrics: ServiceMetrics,
  shutdown: ShutdownSteps,
  migrations: Record<string, Migration>,
): Promise<Omit<ServiceResources<DB>, 'processing' | 'requests'>> {
  const database = await openServiceDatabase<DB>(config.DATABASE_URL, logger, migrations, {
    max: config.DB_POOL_MAX,
  });
  shutdown.add({ name: 'database', close: () => database.close() });
  poolMetrics(metrics.registry, database.pool);
  const events = await openEventBus(config.NATS_URL, name, logger, {
    maxAgeMs: config.EVENTS_MAX_AGE,
    name: config.EVENTS_STREAM,
    prefix: config.EVENTS_SUBJECT_PREFIX,
    replicas: config.EVENTS_REPLICAS,
  });
  shutdown.add({ name: 'events', close: () => events.close() });
  return { logger, database, events };
}

/** The service's own listener (the gateway's), or the kit's service app with its operations and routers. */
function serviceListener<C extends BaseConfig, DB, Ctx>(
  definition: ServiceDefinition<C, DB, Ctx>,
  context: Ctx,
  config: C,
  { logger, database, processing, requests }: ServiceResources<DB>,
  readiness: Record<string, ReadinessCheck>,
): RequestListener {
  if (!definition.app)
    return buildServiceApp(definition, context, config, { logger, readiness, processing, database, requests });
  const db = database.db as unknown as Kysely<WithOutbox>;
  return definition.app(context, { readiness, logger, processing: { log: processing, db, logger } });
}

/** A job that reports its own readiness. */
function hasReadiness(job: Job): job is Job & { ready(): boolean } {
  return typeof job.ready === 'function';
}

function readinessChecks<DB>(
  { database, events }: ServiceResources<DB>,
  built: Built<unknown>,
  jobs: Job[],
  drain: Drain,
): Record<string, ReadinessCheck> {
  return {
    database: () => database.ready(),
    events: () => events.ready(),
    ...built.readiness,
    ...Object.fromEntries(jobs.filter(hasReadiness).map((j) => [j.name, () => Promise.resolve(j.ready())])),
    // After SIGTERM the load balancer must stop sending traffic before the server stops accepting.
    accepting: () => Promise.resolve(!drain.draining),
  };
}

/** What the "not ready for 5 minutes" alert reads: 1 while every readiness check passes. */
function readinessGauge(metrics: ServiceMetrics, readiness: Record<string, ReadinessCheck>): void {
  gaugeCallback(metrics.registry, 'service_ready', 'Whether every readiness check passes (1) or not (0).', async () =>
    Object.values(await checkReadiness(readiness)).every(Boolean) ? 1 : 0,
  );
}

/** `GET /metrics` on its own port (METRICS_PORT), closed right after the public server and the jobs. */
async function startMetricsServer(
  name: ServiceName,
  config: BaseConfig,
  metrics: ServiceMetrics,
  logger: Logger,
  shutdown: ShutdownSteps,
): Promise<{ port: number } | null> {
  const metricsPort = config.METRICS_PORT ?? DEFAULT_METRICS_PORTS[name] ?? 'off';
  const metricsServer = metricsPort === 'off' ? null : await serveMetrics(metrics, metricsPort, config.HOST, logger);
  if (!metricsServer) return null;
  shutdown.add({
    name: 'metrics',
    close: () =>
      new Promise<void>((resolve) => {
        metricsServer.server.close(() => resolve());
        metricsServer.server.closeAllConnections();
      }),
  });
  logger.info({ port: metricsServer.port }, 'metrics listening');
  return metricsServer;
}

/** The public server, closed first on shutdown. */
async function startServer(
  name: ServiceName,
  listener: RequestListener,
  config: BaseConfig,
  logger: Logger,
  shutdown: ShutdownSteps,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(serverOptions(listener), listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const port = await listen(server, config.PORT, config.HOST);
  shutdown.add({
    name: 'server',
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  });
  logger.info({ port }, `${name} listening`);
  return { server, port };
}

/**
 * An Express app's server makes its requests and responses with the app's own prototypes (Express's `req` and `res`
 * helpers). Express re-parents every request and response it is handed (`Object.setPrototypeOf`), a search of V8's
 * map transitions per object per request; an object that already has that prototype is left as it is (ADR 0281).
 */
function serverOptions(listener: RequestListener): http.ServerOptions {
  const app = listener as Partial<Record<'request' | 'response', object>>;
  if (!app.request || !app.response) return {};
  return {
    IncomingMessage: madeWith<typeof http.IncomingMessage>(http.IncomingMessage, app.request),
    ServerResponse: madeWith<typeof http.ServerResponse>(http.ServerResponse, app.response),
  };
}

/** `base`'s constructor, making objects whose prototype is `prototype` (itself one of `base`'s). */
function madeWith<C extends abstract new (...args: never[]) => object>(base: C, prototype: object): C {
  function Made(...args: unknown[]): object {
    return Reflect.construct(base, args, Made) as object;
  }
  Made.prototype = prototype;
  return Made as unknown as C;
}

/** Starts the jobs; on shutdown the server closes first, then the jobs in reverse, then the context. */
async function startJobs(jobs: Job[], shutdown: ShutdownSteps): Promise<void> {
  for (const job of jobs) {
    await job.start();
    shutdown.addBelowLast({ name: job.name, close: () => job.stop() });
  }
}

/** The service's `stop`: the ordered shutdown, run once however often it is called. */
function stopOnce(shutdown: ShutdownSteps, logger: Logger): () => Promise<boolean> {
  let stopped: Promise<boolean> | null = null;
  return () =>
    (stopped ??= (async () => {
      const clean = await shutdown.closeAll();
      logger.info('stopped');
      return clean;
    })());
}

/**
 * SIGTERM or SIGINT: drain (readiness false) for SHUTDOWN_DRAIN_MS, then stop; exit by force when the stop has
 * not finished within SHUTDOWN_TIMEOUT_MS more.
 */
function stopOnSignals(config: BaseConfig, logger: Logger, drain: Drain, stop: () => Promise<boolean>): void {
  const onSignal = (signal: string) => {
    if (drain.draining) return;
    drain.draining = true;
    logger.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown timed out; forcing exit');
      process.exit(1);
    }, config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    setTimeout(() => {
      void stop().then((clean) => {
        if (!clean) process.exitCode = 1;
      });
    }, config.SHUTDOWN_DRAIN_MS);
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
}

/**
 * The service's processing log: on (LDV_LOG, the default) in a service that processes practitioners' data, with
 * the pseudonym's key required then; a service that processes none writes nothing and needs no key.
 */
async function processingLogOf<C extends BaseConfig, DB, Ctx>(
  definition: ServiceDefinition<C, DB, Ctx>,
  config: C,
  opened: { events: ServiceEvents; database: { db: Kysely<DB> } },
  logger: Logger,
  metrics: ServiceMetrics,
  shutdown: ShutdownSteps,
): Promise<ProcessingLog> {
  const processes =
    definition.processesPersonalData === true ||
    (definition.routes ?? []).some((op) => op.rule !== undefined && op.rule.processing !== 'none');
  if (!processes || config.LDV_LOG === 'off') return noProcessingLog;
  if (!config.LDV_PSEUDONYM_SECRET) {
    throw new ConfigError(['LDV_PSEUDONYM_SECRET: required while LDV_LOG is on (the processing log, ADR 0182)']);
  }
  if (!config.LDV_SPOOL_DIR) return processingLog(definition.name, config.LDV_PSEUDONYM_SECRET, opened.events);
  // Before the server listens (a read may append at once) and stopped after it closed, before events and database.
  const spool = new ProcessingSpool({
    dir: path.join(config.LDV_SPOOL_DIR, definition.name),
    service: definition.name,
    events: opened.events,
    db: opened.database.db as unknown as Kysely<WithOutbox>,
    logger: logger.child({ subsystem: 'processing-spool' }),
    maxBytes: config.LDV_SPOOL_MAX_MB * 1024 * 1024,
  });
  gaugeCallback(
    metrics.registry,
    'processing_spool_bytes',
    "Bytes of a read's processing records in the spool that the stream has not acknowledged yet.",
    () => spool.bytesHeld,
  );
  await spool.start();
  shutdown.add({ name: 'processing-spool', close: () => spool.stop() });
  return processingLog(definition.name, config.LDV_PSEUDONYM_SECRET, opened.events, spool);
}

function buildServiceApp<C extends BaseConfig, DB, Ctx>(
  definition: ServiceDefinition<C, DB, Ctx>,
  context: Ctx,
  config: C,
  kit: {
    logger: Logger;
    readiness: Record<string, ReadinessCheck>;
    processing: ProcessingLog;
    database: Database<DB>;
    requests: RequestLoad;
  },
): RequestListener {
  const { logger, readiness } = kit;
  const routes = definition.routes ?? [];
  let openApi: object | null = null;
  const { app, finish } = createServiceApp({
    service: definition.name,
    logger,
    internalSecret: config.INTERNAL_IDENTITY_SECRET,
    readiness,
    openApi: () => (openApi ??= serviceOpenApi(definition.name, routes)),
    requests: kit.requests,
  });
  if (routes.length > 0)
    app.use(
      operationsRouter(context, routes, {
        ...(definition.jsonLimit ? { jsonLimit: definition.jsonLimit } : {}),
        processing: { log: kit.processing, db: kit.database.db as unknown as Kysely<WithOutbox>, logger },
      }),
    );
  for (const router of definition.routers ?? []) app.use(router(context));
  finish();
  return app;
}
