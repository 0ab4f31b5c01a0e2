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

/**
 * What every service reads. Secrets have no default. Each setting's description is its documentation:
 * `npm run env:update` writes `.env.example` from these schemas; `defaultText` says a default that is not one value.
 */
export const baseConfigSchema = z.object({
  PORT: port.describe('Where the service listens (its API; METRICS_PORT is apart).'),
  HOST: z.string().default('127.0.0.1').describe('The address the service listens on.'),
  DATABASE_URL: z.url().describe("The service's own PostgreSQL database (created when missing)."),
  NATS_URL: z
    .string()
    .min(1)
    .describe('NATS with JetStream (comma-separated servers), or `in-process` when every service runs in one process.'),
  INTERNAL_IDENTITY_SECRET: z
    .string()
    .min(32, 'at least 32 characters')
    .describe(
      'HMAC secret of the signed internal identity: at least 32 characters, the same for every service ' +
        '(generate one with: openssl rand -base64 48).',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('The pino log level.'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10).describe('Connections in the database pool.'),
  METRICS_PORT: z
    .union([z.literal('off'), port])
    .optional()
    .meta({
      description: 'Port of the Prometheus `GET /metrics`, never the public one; `off`: no metrics.',
      defaultText: 'gateway 9464, applications 9465, documents 9466, letters 9467, reference 9468, audit 9469',
    }),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10000)
    .describe('Forced exit when the ordered shutdown after SIGTERM takes longer.'),
  SHUTDOWN_DRAIN_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(120_000)
    .default(0)
    .describe(
      "After SIGTERM, readiness answers 503 this long before the server stops accepting; match a load balancer's " +
        'deregistration delay (Kubernetes: the preStop sleep).',
    ),
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a stream name')
    .default('REGISTER')
    .describe("The deployment's JetStream stream (test runs use their own)."),
  EVENTS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([a-z0-9_-]{1,32}\.)?$/, 'empty, or a token and a dot such as t1a2b3.')
    .default('')
    .describe('Put before every event subject, so that several systems share one NATS (test runs use their own).'),
  EVENTS_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .default(1)
    .describe('Copies of the stream in a NATS cluster (3 survives the loss of a node); 1 on a single server.'),
  EVENTS_MAX_AGE: duration
    .pipe(z.number().int().min(60_000))
    .prefault('7d')
    .describe('How long the stream keeps an event: the longest outage a durable consumer survives (7d, 36h, 90m, ms).'),
  LDV_LOG: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'The processing log (Logboek Dataverwerkingen, ADR 0182): `on` writes a record of every processing of a ' +
        "practitioner's personal data; `off` writes none (then `GET /api/v1/me/verwerkingen` shows nothing new).",
    ),
  LDV_SPOOL_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Where a read's processing records are kept before its answer and published in batches every 100 ms (ADR " +
        '0269): fewer messages per read. Each service keeps its spool in a subdirectory named after it; two copies ' +
        "of one service need directories of their own (in Kubernetes the pod's emptyDir). Unset: each read's " +
        'records are published to the stream before its answer.',
    ),
  LDV_SPOOL_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024)
    .default(8)
    .describe(
      "The most a service's processing spool holds unpublished, in MiB (ADR 0270): beyond it, while the stream is " +
        "away, a read's records go the way without a spool (the stream, else the outbox). Keep it below the spool " +
        "volume's size.",
    ),
  LDV_PSEUDONYM_SECRET: z
    .string()
    .min(32, 'at least 32 characters')
    .optional()
    .describe(
      'HMAC-SHA256 key of the data subject pseudonym in the processing log (ADR 0181): at least 32 characters, ' +
        'the same for every service, kept as long as the log. Required when LDV_LOG is on in a service that ' +
        "processes practitioners' data, and in the audit service for the inzage.",
    ),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;
