/**
 * Tokens that passed verification, so a portal's next request with the same token skips the signature check
 * (the gateway's hot path). Keyed by the whole Authorization value: only the exact bytes that were verified
 * hit. An entry lives until the token expires (with the leeway), at most `maxAgeMs`: a key the issuer
 * withdraws stops counting within that time. Bounded; the oldest entry goes first.
 */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, { value: T; validUntilMs: number }>();

  constructor(
    private readonly maxEntries = 5000,
    private readonly maxAgeMs = 60_000,
  ) {}

  get(token: string, nowMs: number): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (nowMs >= entry.validUntilMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.value;
  }

  /** `expiresAtMs`: the token's `exp` plus the leeway, as milliseconds since the epoch. */
  set(token: string, value: T, expiresAtMs: number, nowMs: number): void {
    const validUntilMs = Math.min(expiresAtMs, nowMs + this.maxAgeMs);
    if (validUntilMs <= nowMs) return;
    this.entries.delete(token);
    this.entries.set(token, { value, validUntilMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
