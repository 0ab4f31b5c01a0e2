import { z } from 'zod';
import type { Kysely } from 'kysely';
import { HeaderIdentityProvider, type Identity, type RouteRule } from '@register/authz';
import {
  baseConfigSchema,
  systemClock,
  type Built,
  type Clock,
  type Logger,
  type ServiceEvents,
  type ServiceResources,
} from '@register/service-kit';
import type { GatewayDb } from './database';
import { consoleConfigSchema } from './console/console.routes';
import { Idempotency } from './idempotency/idempotency.middleware';
import { headerCallerProvider } from './identity/identity-provider';
import { checkIdentityConfig, identityConfig, type IdentitySettings } from './identity/identity.config';
import type { IdentityFront } from './identity/resolve-identity.middleware';
import { acrRanks } from './identity/step-up';
import { auditDenial } from './proxy/audit-denial';
import { upstreamUrls } from './proxy/replicas';
import { OidcIdentityProvider } from './adapters/oidc-identity-provider';
import { RemoteKeySet, jwksLocator } from './adapters/remote-key-set';
import { createUpstreams, type Upstream, type UpstreamName } from './adapters/upstreams';
import { SignedIdentities } from './proxy/signed-identities';

const upstream = (service: string) =>
  `The ${service} service (comma-separated URLs of its copies are balanced round robin).`;

export const configSchema = baseConfigSchema
  .extend({
    PORT: baseConfigSchema.shape.PORT.default(8080),
    APPLICATIONS_URL: upstreamUrls('http://127.0.0.1:8081').describe(upstream('applications')),
    DOCUMENTS_URL: upstreamUrls('http://127.0.0.1:8082').describe(upstream('documents')),
    LETTERS_URL: upstreamUrls('http://127.0.0.1:8083').describe(upstream('letters')),
    REFERENCE_URL: upstreamUrls('http://127.0.0.1:8084').describe(upstream('reference')),
    AUDIT_URL: upstreamUrls('http://127.0.0.1:8085').describe(upstream('audit')),
    UPSTREAM_MAX_SOCKETS: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(64)
      .describe('Connections from the gateway to each service at most (keep-alive).'),
    // ADR 0015: the proxy's timeout and breaker.
    PROXY_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(500)
      .default(10_000)
      .describe('A service that sends no byte for this long: the request gets 503 and its breaker opens.'),
    STREAM_IDLE_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(500)
      .default(30_000)
      .describe('The same for uploads and content downloads: no byte moving in either direction for this long.'),
    // ADR 0015: slow request bodies.
    REQUEST_BODY_MIN_RATE: z.coerce
      .number()
      .int()
      .min(1)
      .default(1024)
      .describe('A request body slower than this many bytes a second (over each window) ends with a 408.'),
    REQUEST_BODY_WINDOW_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(10_000)
      .describe("The window over which a request body's rate is judged."),
    ...identityConfig,
    ...consoleConfigSchema,
  })
  .superRefine(checkIdentityConfig);
export type Config = typeof configSchema._output;

/** Everything the gateway's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<GatewayDb>;
  events: ServiceEvents;
  /**
   * `IDENTITY_PROVIDER` (the header stand-in or OIDC), CORS and the reveal's step-up: see
   * identity/resolve-identity.middleware.ts.
   */
  identityProvider: IdentityFront;
  /** Where each service listens (its routes, its /openapi.json, its /health/ready). */
  targets: Record<UpstreamName, string>;
  upstreams: Record<UpstreamName, Upstream>;
  idempotency: Idempotency;
  /** The signed internal identity each proxied request carries (ADR 0027, 0272). */
  signedIdentities: SignedIdentities;
}

/**
 * The composition root: the identity provider `IDENTITY_PROVIDER` names and one keep-alive proxy per service.
 * No readiness check of the services behind it (ADR 0200): a failed service shows in its breaker and in
 * `/api/v1/admin/system`, and must not take every gateway out of its load balancer.
 */
export function buildContext(
  config: Config,
  { logger, database, events }: ServiceResources<GatewayDb>,
): Built<Context> {
  // Each service's copies (comma-separated URLs); the first one answers for the service's description.
  const replicas: Record<UpstreamName, readonly string[]> = {
    applications: config.APPLICATIONS_URL,
    documents: config.DOCUMENTS_URL,
    letters: config.LETTERS_URL,
    reference: config.REFERENCE_URL,
    audit: config.AUDIT_URL,
  };
  const targets = Object.fromEntries(Object.entries(replicas).map(([name, urls]) => [name, urls[0]])) as Record<
    UpstreamName,
    string
  >;
  const idempotency = new Idempotency(database.db, logger);
  const upstreams = createUpstreams({
    targets: replicas,
    logger,
    maxSocketsPerService: config.UPSTREAM_MAX_SOCKETS,
    proxyTimeoutMs: config.PROXY_TIMEOUT_MS,
    streamIdleTimeoutMs: config.STREAM_IDLE_TIMEOUT_MS,
    onIdempotentResponse: (state, status, headers, body) => idempotency.respond(state, status, headers, body),
    onIdempotentFailure: (state) => idempotency.fail(state),
  });
  const identityProvider = identityFront(config, {
    logger,
    clock: systemClock,
    auditDenial: (rule, identity, correlationId) => auditDenial(database.db, rule, identity, correlationId),
  });
  return {
    context: {
      config,
      logger,
      clock: systemClock,
      db: database.db,
      events,
      identityProvider,
      targets,
      upstreams,
      idempotency,
      signedIdentities: new SignedIdentities(config.INTERNAL_IDENTITY_SECRET),
    },
    closers: [
      {
        name: 'upstream connections',
        close: async () => void (await Promise.all(Object.values(upstreams).map((u) => u.close()))),
      },
    ],
    metrics: {
      gateway_upstream_breaker_open: {
        help: 'Whether the breaker of an upstream is open (1: the gateway answers 503 at once) or closed (0).',
        read: () =>
          Object.fromEntries(Object.entries(upstreams).map(([name, u]) => [name, u.breaker.isOpen() ? 1 : 0])),
        label: 'upstream',
      },
    },
  };
}

/** The provider `IDENTITY_PROVIDER` names (the header stand-in by default), with CORS and the step-up rule. */
function identityFront(
  config: IdentitySettings,
  deps: {
    logger: Logger;
    clock: Clock;
    auditDenial: (rule: RouteRule, identity: Identity, correlationId: string) => Promise<void>;
  },
): IdentityFront {
  const common = { corsOrigins: new Set(config.CORS_ORIGINS), clock: deps.clock, auditDenial: deps.auditDenial };
  if (config.IDENTITY_PROVIDER === 'headers')
    return { ...common, provider: headerCallerProvider(new HeaderIdentityProvider()), stepUp: null };
  const issuer = config.OIDC_ISSUER as string;
  const logger = deps.logger.child({ subsystem: 'oidc' });
  const keys = new RemoteKeySet(
    jwksLocator(issuer, config.OIDC_JWKS_URL),
    { cooldownMs: config.OIDC_JWKS_COOLDOWN, maxAgeMs: config.OIDC_JWKS_MAX_AGE, timeoutMs: config.OIDC_JWKS_TIMEOUT },
    logger,
  );
  const provider = new OidcIdentityProvider(
    {
      issuer,
      audience: config.OIDC_AUDIENCE as string,
      clockToleranceSeconds: config.OIDC_CLOCK_TOLERANCE,
      claims: {
        subject: config.OIDC_SUBJECT_CLAIM,
        role: config.OIDC_ROLE_CLAIM,
        employee: config.OIDC_EMPLOYEE_CLAIM,
        roles: config.OIDC_ROLES_CLAIM,
      },
    },
    keys,
    logger,
  );
  const stepUp = {
    minimumAcr: config.OIDC_STEP_UP_ACR === '' ? null : config.OIDC_STEP_UP_ACR,
    maxAgeSeconds: config.OIDC_STEP_UP_MAX_AGE === 0 ? null : config.OIDC_STEP_UP_MAX_AGE,
    ranks: acrRanks(config.OIDC_ACR_ORDER),
    leewaySeconds: config.OIDC_CLOCK_TOLERANCE,
  };
  return { ...common, provider, stepUp };
}
