import { z } from 'zod';
import { duration } from '@register/service-kit';
import { parseOrigins } from './cors.middleware';
import { ACR_RANKS, acrRanks } from './step-up';

const claimName = z.string().regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'a claim name');
const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** The gateway's identity settings (ADR 0001, 0015): the provider, the OIDC token rules, CORS. */
export const identityConfig = {
  IDENTITY_PROVIDER: z
    .enum(['headers', 'oidc'])
    .default('headers')
    .describe('`headers` (the X-Subject stand-in; never on the internet) or `oidc` (Bearer JWTs from OIDC_ISSUER).'),
  OIDC_ISSUER: z.url().optional().describe('With oidc: the issuer; its JWKS verifies the tokens (required).'),
  OIDC_JWKS_URL: z.url().optional().describe("The issuer's JWKS URL, instead of discovery from the issuer."),
  OIDC_AUDIENCE: z.string().min(1).optional().describe("With oidc: the tokens' required audience (required)."),
  OIDC_SUBJECT_CLAIM: claimName.default('bsn').describe("The claim with the practitioner's citizen identifier."),
  OIDC_ROLE_CLAIM: claimName
    .default('role')
    .describe('The claim with the practitioner role (drafter, approver, admin).'),
  OIDC_EMPLOYEE_CLAIM: claimName.default('medewerker').describe("The claim with the case handler's identifier."),
  OIDC_ROLES_CLAIM: claimName.default('rollen').describe("The claim with the case handler's roles."),
  OIDC_CLOCK_TOLERANCE: z.coerce
    .number()
    .int()
    .min(0)
    .max(60)
    .default(30)
    .describe('Seconds of clock skew allowed on exp/nbf (at most 60).'),
  OIDC_STEP_UP_ACR: z
    .string()
    .default('urn:etoegang:core:assurance-class:loa3')
    .describe('The lowest acr that is a step-up for the register-number reveal; empty: only a recent sign-in counts.'),
  OIDC_STEP_UP_MAX_AGE: z.coerce
    .number()
    .int()
    .min(0)
    .default(300)
    .describe(
      'A sign-in (auth_time) at most this many seconds ago is a step-up for the reveal; 0: only the acr counts.',
    ),
  OIDC_ACR_ORDER: z
    .string()
    .default('')
    .transform(list)
    .describe(
      "The IdP's own acr values from low to high, comma-separated; empty: the built-in eToegang/DigiD/eIDAS order.",
    ),
  OIDC_DOCS_CLIENT_ID: z
    .string()
    .min(1)
    .default('register-swagger-ui')
    .describe(
      'The public client Swagger UI (/docs) signs in as: code flow with PKCE, ' +
        'redirect <gateway>/docs/oauth2-redirect.html.',
    ),
  OIDC_JWKS_COOLDOWN: duration
    .pipe(z.number().int().min(0))
    .prefault('30s')
    .describe('The JWKS is fetched again for an unknown key at most this often.'),
  OIDC_JWKS_MAX_AGE: duration.pipe(z.number().int().min(1000)).prefault('10m').describe('How long the JWKS is cached.'),
  OIDC_JWKS_TIMEOUT: duration
    .pipe(z.number().int().min(100).max(1900))
    .prefault('1500ms')
    .describe('A JWKS fetch gives up after this long: below 2 s, so a token is refused within 2 s.'),
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
    })
    .describe('Browser origins allowed to call /api/v1, comma-separated; empty: none.'),
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
