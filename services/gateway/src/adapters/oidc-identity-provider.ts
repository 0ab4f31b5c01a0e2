import type { JWTPayload } from 'jose' with { 'resolution-mode': 'import' };
import type { HeaderBag, Identity, IdentityProvider } from '@register/authz';
import type { Logger } from '@register/service-kit';
import type { Authentication, CallerProvider } from '../identity/identity-provider';
import { identityFromClaims, type ClaimNames } from '../identity/oidc-claims';
import type { RemoteKeySet } from './remote-key-set';
import { VerifiedTokens } from '../identity/verified-tokens';

const jose = import('jose');

/** Asymmetric signatures only: never `none`, never an HMAC whose "secret" could be the public key. */
export const ALLOWED_ALGORITHMS = ['RS256', 'ES256'];

/** A compact JWS has three base64url parts; anything much longer than a real access token is not one. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;
const MAX_TOKEN_LENGTH = 16 * 1024;

export interface OidcSettings {
  issuer: string;
  audience: string;
  /** Seconds of clock skew allowed on `exp` and `nbf` (at most 60). */
  clockToleranceSeconds: number;
  claims: ClaimNames;
}

/**
 * ADR 0001, `IDENTITY_PROVIDER=oidc`: the caller is the bearer access token, verified against the issuer's
 * keys; identity headers are never read. Any failure is "no identity" (401), never a 5xx.
 */
export class OidcIdentityProvider implements IdentityProvider, CallerProvider {
  readonly readsAuthorization = true;
  readonly missingIdentityDetail = 'This request carries no valid bearer access token (Authorization: Bearer <JWT>).';
  readonly challenge = 'Bearer realm="register"';
  private readonly verified = new VerifiedTokens<Authentication>();

  constructor(
    private readonly settings: OidcSettings,
    private readonly keys: RemoteKeySet,
    private readonly logger: Logger,
  ) {}

  async resolve(headers: HeaderBag): Promise<Identity | null> {
    return (await this.authenticate(headers))?.identity ?? null;
  }

  async authenticate(headers: HeaderBag): Promise<Authentication | null> {
    const authorization = headers['authorization'];
    if (typeof authorization !== 'string' || authorization.length > MAX_TOKEN_LENGTH) return null;
    const now = Date.now();
    // Keyed by the whole Authorization value, so a portal's next request is one lookup (no pattern run over
    // the token). Frozen (deeply) when stored: what one request could do to its identity never reaches
    // another's, and a copy per request (structuredClone) cost the cached path more than the cache saved.
    const known = this.verified.get(authorization, now);
    if (known) return known;
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return null;
    const payload = await this.verify(token);
    if (!payload) return null;
    const identity = identityFromClaims(payload, this.settings.claims);
    if (!identity) {
      this.logger.debug('bearer token names neither a practitioner nor a case handler');
      return null;
    }
    const authentication: Authentication = {
      identity,
      assurance: {
        acr: typeof payload.acr === 'string' ? payload.acr : null,
        authTime: typeof payload['auth_time'] === 'number' ? payload['auth_time'] : null,
      },
    };
    const frozen = deepFreeze(authentication);
    this.verified.set(
      authorization,
      frozen,
      ((payload.exp as number) + this.settings.clockToleranceSeconds) * 1000,
      now,
    );
    return frozen;
  }

  private async verify(token: string): Promise<JWTPayload | null> {
    const { errors, jwtVerify } = await jose;
    try {
      const { payload } = await jwtVerify(token, this.keys.getKey, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: this.settings.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (err) {
      // The reason (expired, wrong audience, unknown key …) helps an operator; the token and its claims stay out of the
      // log.
      if (err instanceof errors.JOSEError) this.logger.debug({ reason: err.code }, 'bearer token refused');
      else this.logger.error({ err }, 'bearer token could not be verified');
      return null;
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
