import type { JWTPayload } from 'jose' with { 'resolution-mode': 'import' };
import { ZgwError } from './zgw-errors';

export interface JwtSettings {
  secret: string;
  /** When set, the only client identifier the simulator knows (Open Zaak: a JWTSecret row per client). */
  clientId?: string;
  /** Open Zaak's JWT_EXPIRY: how long after `iat` a token is accepted. */
  expirySeconds: number;
  /** Open Zaak's JWT_LEEWAY (default 0): clock drift allowed on `iat`, `nbf` and `exp`. */
  leewaySeconds: number;
}

export type JwtClaims = JWTPayload & { client_id?: unknown; user_id?: unknown; user_representation?: unknown };

// jose is published as ES modules only; a dynamic import keeps this CommonJS package loadable.
const jose = import('jose');

/**
 * Open Zaak's checks, in its order (vng-api-common `JWTAuth.payload`, then the permission's
 * `check_jwt_expiry`): every failure is a 403 `PermissionDenied` with Open Zaak's code.
 */
export async function verifyZgwJwt(
  authorization: string | undefined,
  settings: JwtSettings,
  now = Date.now(),
): Promise<JwtClaims> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
  // No token: no application, so no permission at all.
  if (!token) throw new ZgwError(403, 'PermissionDenied', 'U heeft geen toestemming om deze actie uit te voeren.');
  const { decodeJwt, jwtVerify } = await jose;
  let unverified: JwtClaims;
  try {
    unverified = decodeJwt<JwtClaims>(token);
  } catch {
    throw denied('JWT could not be decoded. Possibly you made a copy-paste mistake.', 'jwt-decode-error');
  }
  if (unverified.client_id === undefined)
    throw denied('Client identifier is niet aanwezig in JWT', 'missing-client-identifier');
  if (settings.clientId !== undefined && unverified.client_id !== settings.clientId) {
    throw denied('Client identifier bestaat niet', 'invalid-client-identifier');
  }
  let claims: JwtClaims;
  try {
    const verified = await jwtVerify(token, await hmacKey(settings.secret), {
      algorithms: ['HS256'],
      clockTolerance: settings.leewaySeconds,
      currentDate: new Date(now),
    });
    claims = verified.payload;
  } catch (err) {
    throw joseFailure(err);
  }
  const nowSeconds = now / 1000;
  // PyJWT refuses an `iat` in the future (ImmatureSignatureError); jose only checks it with maxTokenAge.
  if (typeof claims.iat === 'number' && claims.iat > nowSeconds + settings.leewaySeconds) {
    throw pyJwtError('ImmatureSignatureError');
  }
  if (claims.iat === undefined) throw denied("The JWT is mising the 'iat' claim.", 'jwt-missing-iat-claim');
  if (nowSeconds - claims.iat >= settings.expirySeconds + settings.leewaySeconds) {
    throw denied('The JWT used for this request is expired', 'jwt-expired');
  }
  return claims;
}

// The secret imported once: jose imports a raw secret again on every verification, a sixth of the
// simulator's time under the mirror's bench.
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new Map<string, Promise<HmacKey>>();
function hmacKey(secret: string): Promise<HmacKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

function denied(detail: string, code: string): ZgwError {
  return new ZgwError(403, 'PermissionDenied', detail, code);
}

// Open Zaak turns every other PyJWT error into `jwt-<exception name in lower case>`.
function pyJwtError(name: string): ZgwError {
  return denied('JWT did not validate, try checking the `nbf` and `iat`', `jwt-${name.toLowerCase()}`);
}

function joseFailure(err: unknown): ZgwError {
  const code = (err as { code?: string }).code;
  const claim = (err as { claim?: string }).claim;
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return denied('Client credentials zijn niet geldig', 'invalid-jwt-signature');
    case 'ERR_JWT_EXPIRED':
      return pyJwtError('ExpiredSignatureError');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return pyJwtError('InvalidAlgorithmError');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return pyJwtError(
        claim === 'nbf' ? 'ImmatureSignatureError' : claim === 'iat' ? 'InvalidIssuedAtError' : 'InvalidTokenError',
      );
    default:
      return pyJwtError('DecodeError');
  }
}
