import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with a zod schema; every problem is listed at once. A variable set to the empty string
 * counts as unset (docker-compose's `${NAME:-}` and an `.env` line without a value), so its default applies and
 * a secret left empty stays missing.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return result.data;
}

const port = z.coerce.number().int().min(0).max(65535);

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as `7d`, `36h`, `90m`, `600s`, `500ms` or plain milliseconds; parsed to milliseconds. */
export const duration = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(String(value).trim());
  if (!m) {
    ctx.addIssue({ code: 'custom', message: 'a duration such as 7d, 36h, 90m, 600s or milliseconds' });
    return z.NEVER;
  }
  return Number(m[1]) * (UNIT_MS[m[2] ?? 'ms'] ?? 1);
});

/** What every service reads. Secrets have no default. */
export const baseConfigSchema = z.object({
  PORT: port,
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.url(),
  NATS_URL: z.string().min(1),
  INTERNAL_IDENTITY_SECRET: z.string().min(32, 'at least 32 characters'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** Prometheus `GET /metrics` on its own port (never the public one); default per service (gateway 9464, then 9465…9469); `off` serves none. */
  METRICS_PORT: z.union([z.literal('off'), port]).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  /** After SIGTERM, readiness answers 503 this long before the server stops accepting (a Kubernetes preStop match). */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** How long the event stream keeps an event: the longest outage a durable consumer survives (default 7 days). */
  /** The JetStream stream of this deployment, and a prefix put before every subject (test runs use their own). */
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a stream name')
    .default('REGISTER'),
  EVENTS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([a-z0-9_-]{1,32}\.)?$/, 'empty, or a token and a dot such as t1a2b3.')
    .default(''),
  EVENTS_MAX_AGE: duration.pipe(z.number().int().min(60_000)).default(7 * 86_400_000),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;
