import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Identity, ServiceCaller } from './identity';

/** Header that carries the gateway-resolved identity (or a calling service) to the services. */
export const INTERNAL_IDENTITY_HEADER = 'x-internal-identity';
export const DEFAULT_TTL_SECONDS = 60;

export interface InternalClaims {
  identity: Identity | null;
  service: ServiceCaller | null;
  correlationId: string | null;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/**
 * The secrets' keys, imported once: an HMAC from a string secret sets the key up anew on every token, which costs
 * about as much as the rest of the HMAC (every request is verified, and signed at the gateway). A process knows
 * one or two secrets; more (a test's) only empty the map.
 */
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= 8) keys.clear();
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(payload).digest();
}

export function signInternalIdentity(
  secret: string,
  claims: Omit<InternalClaims, 'exp'>,
  nowMs = Date.now(),
  ttlSeconds = DEFAULT_TTL_SECONDS,
): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(nowMs / 1000) + ttlSeconds })).toString(
    'base64url',
  );
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** Returns the claims when the signature is valid and not expired; null otherwise. */
export function verifyInternalIdentity(
  secret: string,
  token: string | undefined,
  nowMs = Date.now(),
): InternalClaims | null {
  if (!token) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as InternalClaims;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < nowMs) return null;
    return claims;
  } catch {
    return null;
  }
}
