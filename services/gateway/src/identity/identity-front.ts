import { HeaderIdentityProvider, type Identity, type RouteRule } from '@register/authz';
import type { Clock, Logger } from '@register/service-kit';
import { headerCallerProvider } from './identity-provider';
import type { IdentitySettings } from './identity.config';
import { OidcIdentityProvider } from './oidc-identity-provider';
import { RemoteKeySet, jwksLocator } from './remote-key-set';
import type { IdentityFront } from './resolve-identity';
import { acrRanks } from './step-up';

/** The provider `IDENTITY_PROVIDER` names (the header stand-in by default), with CORS and the step-up rule. */
export function buildIdentityFront(
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
