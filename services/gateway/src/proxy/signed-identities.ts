import { DEFAULT_TTL_SECONDS, signInternalIdentity, type Identity } from '@register/authz';
import { BoundedMap } from '@register/service-kit';

/** A token is used for the first half of its life, then signed anew: every one a service sees has 29 s or more. */
const RENEW_AFTER_MS = (DEFAULT_TTL_SECONDS * 1000) / 2;
/** Callers whose tokens are kept; beyond, the one signed longest ago goes (and is signed again when it returns). */
const KEPT = 10_000;
/**
 * The longest identity (as JSON) whose token is kept. A longer one (the header stand-in takes any `X-Rollen`, up to
 * the header limit) is signed on each request as before: kept, 10 000 of them would hold hundreds of megabytes.
 */
const KEPT_KEY_LENGTH = 1024;

/**
 * The gateway's signed internal identity for each caller (ADR 0027), signed once per half lifetime instead of once
 * per request (ADR 0272). The token carries no correlation id: that travels in `X-Correlation-Id`, and no service
 * read it from the token. Kept in memory only, never logged.
 */
export class SignedIdentities {
  private readonly tokens = new BoundedMap<string, { token: string; renewAtMs: number }>(KEPT);

  constructor(
    private readonly secret: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  tokenFor(identity: Identity | null): string {
    const key = JSON.stringify(identity);
    const now = this.nowMs();
    if (key.length > KEPT_KEY_LENGTH) return this.sign(identity, now);
    const kept = this.tokens.get(key);
    if (kept && now < kept.renewAtMs) return kept.token;
    const token = this.sign(identity, now);
    this.tokens.set(key, { token, renewAtMs: now + RENEW_AFTER_MS });
    return token;
  }

  private sign(identity: Identity | null, nowMs: number): string {
    return signInternalIdentity(this.secret, { identity, service: null, correlationId: null }, nowMs);
  }
}
