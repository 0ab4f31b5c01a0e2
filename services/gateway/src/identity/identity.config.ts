import { z } from 'zod';
import { duration } from '@register/service-kit';
import { parseOrigins } from './cors';
import { ACR_RANKS, acrRanks } from './step-up';

const claimName = z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'a claim name');
const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** The gateway's identity settings (ADR 0001, 0015): the provider, the OIDC token rules, CORS. */
export const identityConfig = {
  IDENTITY_PROVIDER: z.enum(['headers', 'oidc']).default('headers'),
  OIDC_ISSUER: z.url().optional(),
  /** Instead of discovery from the issuer. */
  OIDC_JWKS_URL: z.url().optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_SUBJECT_CLAIM: claimName.default('bsn'),
  OIDC_ROLE_CLAIM: claimName.default('role'),
  OIDC_EMPLOYEE_CLAIM: claimName.default('medewerker'),
  OIDC_ROLES_CLAIM: claimName.default('rollen'),
  /** Seconds of clock skew on `exp`/`nbf`; ADR 0001 allows at most 60. */
  OIDC_CLOCK_TOLERANCE: z.coerce.number().int().min(0).max(60).default(30),
  /** The lowest `acr` that is a step-up for the reveal; empty: only a recent sign-in counts. */
  OIDC_STEP_UP_ACR: z.string().default('urn:etoegang:core:assurance-class:loa3'),
  /** A sign-in (`auth_time`) at most this many seconds ago is a step-up for the reveal; 0: only the acr counts. */
  OIDC_STEP_UP_MAX_AGE: z.coerce.number().int().min(0).default(300),
  /** The IdP's own acr values from low to high, replacing the built-in eToegang/DigiD/eIDAS order. */
  OIDC_ACR_ORDER: z.string().default('').transform(list),
  /** The public client Swagger UI (/docs) signs in as: code flow with PKCE, redirect `<gateway>/docs/oauth2-redirect.html`. */
  OIDC_DOCS_CLIENT_ID: z.string().min(1).default('register-swagger-ui'),
  OIDC_JWKS_COOLDOWN: duration.pipe(z.number().int().min(0)).default(30_000),
  OIDC_JWKS_MAX_AGE: duration.pipe(z.number().int().min(1000)).default(600_000),
  /** Below 2 s: a token whose key must be fetched from an unreachable IdP is refused within 2 s (ADR 0001). */
  OIDC_JWKS_TIMEOUT: duration.pipe(z.number().int().min(100).max(1900)).default(1500),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseOrigins(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'comma-separated origins such as https://portal.example.nl' });
        return z.NEVER;
      }
    }),
};

export type IdentitySettings = z.output<z.ZodObject<typeof identityConfig>>;

/** With `oidc`, the issuer and audience are required: a token is never accepted without both checks. */
export function checkIdentityConfig(config: IdentitySettings, ctx: z.RefinementCtx): void {
  if (config.IDENTITY_PROVIDER !== 'oidc') return;
  for (const name of ['OIDC_ISSUER', 'OIDC_AUDIENCE'] as const) {
    if (!config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when IDENTITY_PROVIDER=oidc' });
  }
  const ranks = acrRanks(config.OIDC_ACR_ORDER);
  if (config.OIDC_STEP_UP_ACR !== '' && !ranks.has(config.OIDC_STEP_UP_ACR)) {
    const known = ranks === ACR_RANKS ? 'the built-in order' : 'OIDC_ACR_ORDER';
    ctx.addIssue({ code: 'custom', path: ['OIDC_STEP_UP_ACR'], message: `not in ${known}` });
  }
}
