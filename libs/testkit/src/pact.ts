import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity, type InternalClaims } from '@register/authz';
import { TEST_SECRET } from './core';

/**
 * ADR 0235: the consumer-driven contracts between the services. The pact files are kept in the repository
 * (`pacts/<consumer>-<provider>.json`); a consumer test writes its pact to a directory of its own and compares
 * it with the committed one, and each provider verifies the committed files that name it.
 */
export const PACTS_DIR = path.resolve(__dirname, '..', '..', '..', 'pacts');

/** Set to rewrite the committed pacts from what the consumer tests wrote (`npm run pacts:update`). */
const UPDATE = process.env['PACT_UPDATE'] === '1';

/** The instant the example tokens are signed at: fixed, so a pact file is the same on every run. */
const EXAMPLE_SIGNED_AT = Date.UTC(2026, 0, 1);

type Claims = Omit<InternalClaims, 'exp'>;

/**
 * The signed internal identity a consumer sends, as a pact describes it: a regular expression that pins
 * the claims (everything the token says but its expiry) and a signature's shape, with an example token.
 * The token is `base64url(JSON of the claims, then exp)`.`base64url(HMAC)`: the longest prefix of the claims'
 * JSON that fills whole base64 groups encodes to a fixed prefix of every such token, whatever its expiry.
 * The claims must be written in the order the signer writes them: identity, service, correlationId.
 */
export function signedIdentity(claims: Claims): { pattern: string; example: string } {
  const json = JSON.stringify({
    identity: claims.identity,
    service: claims.service,
    correlationId: claims.correlationId,
  });
  // Everything up to the closing brace, then the comma that precedes `"exp":`.
  const before = Buffer.from(`${json.slice(0, -1)},`);
  const fixed = before.subarray(0, before.length - (before.length % 3)).toString('base64url');
  return {
    pattern: `^${fixed}[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]{43}$`,
    example: signInternalIdentity(TEST_SECRET, claims, EXAMPLE_SIGNED_AT),
  };
}

/**
 * The verifier's request filter: the pact's example token expired long ago, so the claims it carries are
 * signed again with the test secret and a fresh expiry before the request reaches the provider. The provider
 * then checks a real signature for exactly the identity the consumer sends.
 */
export function resignInternalIdentity(req: IncomingMessage, _res: unknown, next: () => void): void {
  const token = req.headers[INTERNAL_IDENTITY_HEADER];
  if (typeof token === 'string') {
    const payload = token.slice(0, token.indexOf('.'));
    const { identity, service, correlationId } = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as InternalClaims;
    req.headers[INTERNAL_IDENTITY_HEADER] = signInternalIdentity(TEST_SECRET, { identity, service, correlationId });
  }
  next();
}

/** The committed pact files whose provider is `provider`. */
export function pactsFor(provider: string): string[] {
  return readdirSync(PACTS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => path.join(PACTS_DIR, file))
    .filter(
      (file) => (JSON.parse(readFileSync(file, 'utf8')) as { provider: { name: string } }).provider.name === provider,
    );
}

export interface PactOutput {
  /** Where the consumer test's Pact writes (a directory of its own, empty at the start). */
  dir: string;
  /**
   * The pact this run wrote and the committed one (null when none is committed), each without its `metadata`
   * (the versions of Pact that wrote it: an upgrade of Pact alone changes no contract). With PACT_UPDATE=1 the
   * written one is committed first.
   */
  written(): { written: unknown; committed: unknown };
  close(): void;
}

/** A pact file's consumer, provider and interactions. */
function contract(file: string): unknown {
  const { metadata: _versions, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return rest;
}

export function pactOutput(consumer: string, provider: string): PactOutput {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pact-${consumer}-${provider}-`));
  const file = `${consumer}-${provider}.json`;
  const committed = path.join(PACTS_DIR, file);
  return {
    dir,
    written() {
      const fresh = path.join(dir, file);
      if (UPDATE) {
        mkdirSync(PACTS_DIR, { recursive: true });
        copyFileSync(fresh, committed);
      }
      return { written: contract(fresh), committed: existsSync(committed) ? contract(committed) : null };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
