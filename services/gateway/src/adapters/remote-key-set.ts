import type { CryptoKey, FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters, LocalJWKSet } from 'jose' with {
  'resolution-mode': 'import',
};
import type { Logger } from '@register/service-kit';
import { discoveryUrl } from '../identity/oidc-discovery';

// jose is published as ES modules only; a dynamic import keeps this CommonJS package loadable.
const jose = import('jose');

export interface KeySetTiming {
  /** After a fetch (or a failed attempt), no other fetch for this long: an unknown `kid` cannot hammer the IdP. */
  cooldownMs: number;
  /** Keys older than this are refreshed in the background while they keep verifying. */
  maxAgeMs: number;
  /** A fetch (discovery included) that takes longer is given up: the request waiting on it gets its 401 in time. */
  timeoutMs: number;
}

/**
 * The issuer's signing keys, cached. Unlike jose's remote set, cached keys keep working when the IdP is
 * unreachable past their age (ADR 0001: never a 5xx or a hang because of the IdP); every fetch, whatever
 * prompted it, waits for the cool-down, and concurrent requests share one fetch.
 */
export class RemoteKeySet {
  private local: LocalJWKSet | null = null;
  private fetchedAt = -Infinity;
  private attemptedAt = -Infinity;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly locate: (signal: AbortSignal) => Promise<URL>,
    private readonly timing: KeySetTiming,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** jose's key lookup: the key the token's header names, refetching once (per cool-down) for an unknown `kid`. */
  readonly getKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    if (!this.local) await this.refresh();
    else if (this.now() - this.fetchedAt > this.timing.maxAgeMs) void this.refresh();
    const { errors } = await jose;
    if (!this.local) throw new errors.JWKSNoMatchingKey('no signing keys of the issuer are known (yet)');
    try {
      return await this.local(header, token);
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
      const before = this.local;
      await this.refresh();
      if (this.local === before) throw err;
      return this.local(header, token);
    }
  };

  private refresh(): Promise<void> {
    if (this.pending) return this.pending;
    if (this.now() - this.attemptedAt < this.timing.cooldownMs) return Promise.resolve();
    this.attemptedAt = this.now();
    this.pending = this.load().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async load(): Promise<void> {
    try {
      const signal = AbortSignal.timeout(this.timing.timeoutMs);
      const url = await this.locate(signal);
      const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`the JWKS endpoint answered ${res.status}`);
      const jwks = (await res.json()) as JSONWebKeySet;
      if (!jwks || !Array.isArray(jwks.keys)) throw new Error('the JWKS endpoint answered no key set');
      const { createLocalJWKSet } = await jose;
      this.local = createLocalJWKSet(jwks);
      this.fetchedAt = this.now();
      this.logger.info({ keys: jwks.keys.length }, 'issuer signing keys fetched');
    } catch (err) {
      // Keys already cached stay in use; a token whose key is unknown is refused (401) until the IdP is back.
      this.logger.warn(
        { reason: err instanceof Error ? err.message : String(err), cached: this.local !== null },
        'issuer signing keys could not be fetched',
      );
    }
  }
}

/** Where the keys are: `OIDC_JWKS_URL`, or the issuer's discovery document (fetched once it succeeds). */
export function jwksLocator(issuer: string, jwksUrl: string | undefined): (signal: AbortSignal) => Promise<URL> {
  if (jwksUrl) return () => Promise.resolve(new URL(jwksUrl));
  let found: URL | null = null;
  return async (signal) => {
    if (found) return found;
    const res = await fetch(discoveryUrl(issuer), { signal, headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`the discovery document answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== issuer) throw new Error('the discovery document names another issuer');
    if (typeof doc.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
    found = new URL(doc.jwks_uri);
    return found;
  };
}
