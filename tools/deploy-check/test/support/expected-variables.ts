import type { ExpectedVariable } from '../../src';

/** The case mirror's settings with the defaults of services/applications/src/context.ts (ADR 0011). */
export const MIRROR: ExpectedVariable[] = [
  { name: 'ZGW_ENABLED', default: 'false' },
  ...['ZGW_ZAKEN_URL', 'ZGW_DOCUMENTEN_URL', 'ZGW_CATALOGI_URL', 'ZGW_ZAAKTYPE_URL', 'ZGW_CLIENT_ID', 'ZGW_RSIN'].map(
    (name) => ({ name }),
  ),
  { name: 'ZGW_TIMEOUT_MS', default: '10000' },
  { name: 'ZGW_RECONCILE_INTERVAL_MS', default: '300000' },
  { name: 'ZGW_RECONCILE_WINDOW', default: '48h' },
  { name: 'ZGW_MIRROR_POLL_INTERVAL_MS', default: '500' },
  { name: 'ZGW_MIRROR_CONCURRENCY', default: '16' },
  { name: 'ZGW_MIRROR_YIELD_RPS', default: '50' },
  { name: 'ZGW_SECRET', secret: true },
  { name: 'NOTIFICATIES_AUTH', secret: true },
];

/** The gateway's identity settings with the defaults of services/gateway/src/identity/identity.config.ts. */
export const IDENTITY: ExpectedVariable[] = [
  { name: 'IDENTITY_PROVIDER', default: 'headers' },
  { name: 'OIDC_SUBJECT_CLAIM', default: 'bsn' },
  { name: 'OIDC_ROLE_CLAIM', default: 'role' },
  { name: 'OIDC_EMPLOYEE_CLAIM', default: 'medewerker' },
  { name: 'OIDC_ROLES_CLAIM', default: 'rollen' },
  { name: 'OIDC_STEP_UP_ACR', default: 'urn:etoegang:core:assurance-class:loa3' },
  { name: 'OIDC_STEP_UP_MAX_AGE', default: '300' },
  { name: 'OIDC_CLOCK_TOLERANCE', default: '30' },
  { name: 'OIDC_ACR_ORDER', default: '' },
  { name: 'OIDC_DOCS_CLIENT_ID', default: 'register-swagger-ui' },
  { name: 'OIDC_JWKS_COOLDOWN', default: '30s' },
  { name: 'OIDC_JWKS_MAX_AGE', default: '10m' },
  { name: 'OIDC_JWKS_TIMEOUT', default: '1500ms' },
];

/** The issuer's settings: no default and never empty (URLs), set where the gateway verifies tokens. */
export const ISSUER: ExpectedVariable[] = [
  { name: 'OIDC_ISSUER' },
  { name: 'OIDC_JWKS_URL' },
  { name: 'OIDC_AUDIENCE' },
];
